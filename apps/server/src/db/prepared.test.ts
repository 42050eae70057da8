import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScratchPostgres } from '../../test/postgres.js';
import { type DatabaseHandle, openPglite } from './client.js';
import { prepared } from './prepared.js';

const item = pgTable('prepared_item', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
});

const engines: Array<[string, () => Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }>]> = [
  ['the embedded engine', async () => ({ handle: await openPglite(null), drop: async () => {} })],
  [
    'PostgreSQL',
    async () => {
      const scratch = await createScratchPostgres();
      return { handle: scratch.open(), drop: scratch.drop };
    },
  ],
];

describe.each(engines)('a prepared statement, on %s', (_engine, open) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, drop } = await open());
    await handle.db.execute(sql`create table prepared_item (id integer primary key, name text not null, at timestamptz)`);
    await handle.db.execute(sql`insert into prepared_item values (1, 'one', '2026-03-04T05:06:07.089Z'), (2, 'two', null)`);
  });

  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  const byId = (db: DatabaseHandle['db']) =>
    prepared(db, 'prepared_item_by_id', (name) =>
      db
        .select({ name: item.name, at: item.at })
        .from(item)
        .where(eq(item.id, sql.placeholder('id')))
        .prepare(name),
    );

  it('is built once per database object and answers as the same query unprepared', async () => {
    const build = vi.fn((name: string) =>
      handle.db
        .select()
        .from(item)
        .where(eq(item.id, sql.placeholder('id')))
        .prepare(name),
    );
    const first = prepared(handle.db, 'prepared_item_all', build);
    expect(prepared(handle.db, 'prepared_item_all', build)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    expect(await first.execute({ id: 1 })).toEqual(await handle.db.select().from(item).where(eq(item.id, 1)));
  });

  it('runs again and again with new values (on PostgreSQL, from each connection’s own parse)', async () => {
    for (let run = 0; run < 8; run += 1) {
      expect(await byId(handle.db).execute({ id: 1 })).toEqual([{ name: 'one', at: new Date('2026-03-04T05:06:07.089Z') }]);
      expect(await byId(handle.db).execute({ id: 2 })).toEqual([{ name: 'two', at: null }]);
    }
  });

  it('gives a transaction statements of its own, which see its writes', async () => {
    await handle.db
      .transaction(async (tx) => {
        const db = tx as unknown as DatabaseHandle['db'];
        expect(byId(db)).not.toBe(byId(handle.db));
        await db.update(item).set({ name: 'uno' }).where(eq(item.id, 1));
        expect(await byId(db).execute({ id: 1 })).toEqual([{ name: 'uno', at: new Date('2026-03-04T05:06:07.089Z') }]);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(await byId(handle.db).execute({ id: 1 })).toEqual([{ name: 'one', at: new Date('2026-03-04T05:06:07.089Z') }]);
  });
});
