import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgres, TEST_POSTGRES_URL } from '../../test/postgres.js';

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;

beforeAll(async () => {
  scratch = await createScratchPostgres();
});

afterAll(async () => {
  await scratch?.drop();
});

/** The server processes connected to the scratch database, as PostgreSQL counts them. */
async function connectionsToScratch(): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    const name = new URL(scratch.url).pathname.slice(1);
    const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [
      name,
    ]);
    return rows[0]?.n ?? -1;
  } finally {
    await admin.end();
  }
}

describe('the PostgreSQL client', () => {
  it('has closed every connection once close has answered', async () => {
    // Dropping a database (as tests do after closing it) ends the connections still open, and
    // each of those fails as an error nobody handles.
    const handle = scratch.open();
    const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
    const clients: pg.PoolClient[] = [];
    pool.on('connect', (client) => clients.push(client));
    // Two connections of the pool at once.
    await Promise.all([handle.db.execute(sql`select 1`), handle.db.execute(sql`select pg_sleep(0.01)`)]);
    expect(clients).toHaveLength(2);
    await handle.close();
    expect(clients.map((client) => (client as unknown as { _ended: boolean })._ended)).toEqual([true, true]);
    expect(await connectionsToScratch()).toBe(0);
  });
});
