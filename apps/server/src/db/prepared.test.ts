import { eq, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchPostgres } from '../../test/postgres.js';
import { type DatabaseHandle, openPglite } from './client.js';
import { prepared } from './prepared.js';

const item = pgTable('mapped_item', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  flag: boolean('flag'),
  doc: jsonb('doc'),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  ownerId: integer('owner_id'),
});
const owner = pgTable('mapped_owner', { id: integer('id').primaryKey(), name: text('name') });

const CREATE = [
  sql`create table mapped_owner (id integer primary key, name text)`,
  sql`create table mapped_item (id integer primary key, name text not null, flag boolean, doc jsonb, at timestamptz, owner_id integer)`,
  sql`insert into mapped_owner values (1, 'Ada')`,
  sql`insert into mapped_item values (1, 'one', true, '{"a":[1,"x"]}', '2026-03-04T05:06:07.089Z', 1), (2, 'two', null, null, null, 7)`,
];

/** Columns, an owner's column through a left join (null when missing), and SQL of every kind a selection holds. */
const selection = {
  id: item.id,
  name: item.name,
  flag: item.flag,
  doc: item.doc,
  at: item.at,
  ownerName: owner.name,
  doubled: sql<number>`${item.id} * 2`.mapWith(Number),
  day: sql<Date>`${item.at} + interval '1 day'`.mapWith(item.at),
  label: sql<string>`upper(${item.name})`.as('label'),
  raw: sql<unknown>`${item.flag}`,
};

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

describe.each(engines)('a prepared select of flat fields, on %s', (_engine, open) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, drop } = await open());
    for (const statement of CREATE) await handle.db.execute(statement);
  });

  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it("maps each row as drizzle's own query does, nulls, dates, JSON and decoders of SQL included", async () => {
    const query = () => handle.db.select(selection).from(item).leftJoin(owner, eq(owner.id, item.ownerId)).orderBy(item.id);
    const statement = prepared(handle.db, 'mapped_items', (name) => query().prepare(name));
    const rows = await statement.execute();
    expect(rows).toEqual(await query());
    expect(rows).toEqual([
      {
        id: 1,
        name: 'one',
        flag: true,
        doc: { a: [1, 'x'] },
        at: new Date('2026-03-04T05:06:07.089Z'),
        ownerName: 'Ada',
        doubled: 2,
        day: new Date('2026-03-05T05:06:07.089Z'),
        label: 'ONE',
        raw: true,
      },
      {
        id: 2,
        name: 'two',
        flag: null,
        doc: null,
        at: null,
        ownerName: null,
        doubled: 4,
        day: null,
        label: 'TWO',
        raw: null,
      },
    ]);
    // Run again (named, and on PostgreSQL from its own connection's parse): the same rows.
    expect(await statement.execute()).toEqual(rows);
  });

  it('leaves a selection of nested objects to drizzle', async () => {
    const query = () =>
      handle.db
        .select({ item: { id: item.id, name: item.name }, owner })
        .from(item)
        .leftJoin(owner, eq(owner.id, item.ownerId))
        .orderBy(item.id);
    const statement = prepared(handle.db, 'mapped_nested', (name) => query().prepare(name));
    expect(await statement.execute()).toEqual([
      { item: { id: 1, name: 'one' }, owner: { id: 1, name: 'Ada' } },
      { item: { id: 2, name: 'two' }, owner: null },
    ]);
  });
});
