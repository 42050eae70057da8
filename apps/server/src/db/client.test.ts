import { PGlite, types } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openPglite } from './client.js';
import { user } from './schema/auth.js';

describe('the embedded database client', () => {
  const query = vi.spyOn(PGlite.prototype, 'query');
  const opened = openPglite(null).then(async (handle) => {
    await handle.migrate();
    return handle;
  });
  afterAll(async () => {
    query.mockRestore();
    await (await opened).close();
  });

  it('reads timestamps through drizzle as before, without handing PGlite parsers with each query', async () => {
    const { db } = await opened;
    const createdAt = new Date('2026-03-01T12:34:56.789Z');
    await db.insert(user).values({ id: 'u1', name: 'A B', email: 'a@example.test', createdAt });
    query.mockClear();
    const [row] = await db.select().from(user).where(eq(user.id, 'u1'));
    expect(row?.createdAt).toEqual(createdAt);
    expect(row?.deletedAt).toBeNull();
    // Raw statements see timestamps as text, as drizzle asked for them.
    const raw: unknown = await db.execute(sql`select created_at from "user" where id = 'u1'`);
    expect(typeof (raw as { rows: { created_at: unknown }[] }).rows[0]?.created_at).toBe('string');
    expect(query).toHaveBeenCalledTimes(2);
    for (const [, , options] of query.mock.calls) expect(options?.parsers).toBeUndefined();
  });

  it('keeps parsers that a caller gives for other types', async () => {
    const { db } = await opened;
    const client = (db as unknown as { $client: PGlite }).$client;
    const result = await client.query<{ n: string }>('select 41 + 1 as n', [], {
      parsers: { [types.INT4]: (value: string) => `#${value}` },
    });
    expect(result.rows[0]?.n).toBe('#42');
  });
});
