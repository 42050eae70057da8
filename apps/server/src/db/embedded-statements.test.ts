import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, openPglite } from './client.js';
import { embeddedStatementFor } from './embedded-statements.js';
import { PLANNING_TRIAL, type StatementPlanning } from './statement-planning.js';
import { prepared } from './prepared.js';

const note = pgTable('embedded_note', {
  id: integer('id').primaryKey(),
  body: text('body'),
  tags: text('tags').array(),
  doc: jsonb('doc'),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
});

let handle: DatabaseHandle;
let client: PGlite;

beforeAll(async () => {
  handle = await openPglite(null);
  client = (handle.db as unknown as { $client: PGlite }).$client;
  await handle.db.execute(
    sql`create table embedded_note (id integer primary key, body text, tags text[], doc jsonb, at timestamptz)`,
  );
});

afterAll(() => handle.close());

const byId = () =>
  prepared(handle.db, 'embedded_note_by_id', (name) =>
    handle.db
      .select()
      .from(note)
      .where(eq(note.id, sql.placeholder('id')))
      .prepare(name),
  );
const insertNote = () =>
  prepared(handle.db, 'embedded_note_insert', (name) =>
    handle.db
      .insert(note)
      .values({
        id: sql.placeholder('id'),
        body: sql.placeholder('body'),
        tags: sql.placeholder('tags'),
        doc: sql.placeholder('doc'),
        at: sql.placeholder('at'),
      })
      .prepare(name),
  );

/** The session's plan_cache_mode, as a statement reads it. */
const mode = sql<string>`current_setting('plan_cache_mode')`;

/** A named statement of `fields` by id, planned as `planning` says. */
const modeById = <F extends Record<string, typeof mode | typeof note.id | typeof note.body>>(
  name: string,
  fields: F,
  planning: StatementPlanning,
) =>
  prepared(
    handle.db,
    name,
    (statementName) =>
      handle.db
        .select(fields)
        .from(note)
        .where(eq(note.id, sql.placeholder('id')))
        .prepare(statementName),
    { planning },
  );

describe('named statements on the embedded engine', () => {
  it('answer as the same statement unnamed does, in one call into the database after the first', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    await insertNote().execute({ id: 1, body: "it's", tags: ['a', 'b,c'], doc: { n: 1, list: [true] }, at });
    await handle.db.insert(note).values({ id: 2 });

    const calls = vi.spyOn(client, 'execProtocolStream');
    const unnamed = await handle.db.select().from(note).where(eq(note.id, 1));
    expect(calls.mock.calls.length).toBeGreaterThan(1);
    calls.mockClear();
    expect(await byId().execute({ id: 1 })).toEqual(unnamed);
    expect(unnamed).toEqual([{ id: 1, body: "it's", tags: ['a', 'b,c'], doc: { n: 1, list: [true] }, at }]);
    expect(await byId().execute({ id: 2 })).toEqual([{ id: 2, body: null, tags: null, doc: null, at: null }]);
    expect(await byId().execute({ id: 3 })).toEqual([]);
    // Parsed once (its first run, or an earlier test's), then one call a run.
    expect(calls.mock.calls.length).toBeLessThanOrEqual(4);
    calls.mockClear();
    await byId().execute({ id: 1 });
    expect(calls).toHaveBeenCalledTimes(1);
    calls.mockRestore();
  });

  it("refuse with PostgreSQL's error and leave the database ready for the next statement", async () => {
    const duplicate = insertNote().execute({ id: 1, body: 'again', tags: [], doc: {}, at: new Date() });
    await expect(duplicate).rejects.toMatchObject({ cause: { code: '23505', constraint: 'embedded_note_pkey' } });
    expect(await byId().execute({ id: 1 })).toHaveLength(1);
    // Inside a transaction that is rolled back, nothing of it stays.
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(note).values({ id: 9, body: 'in a transaction' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await byId().execute({ id: 9 })).toEqual([]);
  });

  it('plan a generic statement with its generic plan, and every other statement as PostgreSQL does by default', async () => {
    const generic = modeById('embedded_note_generic', { mode, id: note.id }, 'generic');
    // Another text: the embedded engine names one statement a text.
    const auto = modeById('embedded_note_auto', { id: note.id, mode }, 'auto');
    const unnamed = () => handle.db.select({ mode }).from(note).where(eq(note.id, 1));

    expect(await unnamed()).toEqual([{ mode: 'auto' }]);
    expect(await generic.execute({ id: 1 })).toEqual([{ mode: 'force_generic_plan', id: 1 }]);
    expect(await generic.execute({ id: 2 })).toEqual([{ mode: 'force_generic_plan', id: 2 }]);
    expect(await auto.execute({ id: 1 })).toEqual([{ id: 1, mode: 'auto' }]);
    expect(await generic.execute({ id: 1 })).toEqual([{ mode: 'force_generic_plan', id: 1 }]);
    expect(await unnamed()).toEqual([{ mode: 'auto' }]);
    await generic.execute({ id: 1 });
    expect(await handle.db.transaction((tx) => tx.select({ mode }).from(note).where(eq(note.id, 1)))).toEqual([{ mode: 'auto' }]);
  });

  it('try a measured statement both ways on its first runs, then keep one way', async () => {
    const measured = modeById('embedded_note_measured', { mode, body: note.body }, 'measured');
    const { warmUp, timed } = PLANNING_TRIAL;
    const modes: string[] = [];
    for (let run = 0; run < warmUp + 2 * timed + 1 + 4; run++) {
      const [row] = await measured.execute({ id: 1 });
      modes.push(row?.mode ?? 'none');
      // Another statement in between, as requests interleave: each run still takes its own mode.
      await handle.db.select({ mode }).from(note).where(eq(note.id, 1));
    }
    // PostgreSQL's own planning first, then the generic plan (the trial may end there, had that run
    // been slow), then one mode, whichever ran faster here.
    expect(modes.slice(0, warmUp + timed)).toEqual(Array(warmUp + timed).fill('auto'));
    expect(modes[warmUp + timed]).toBe('force_generic_plan');
    expect(new Set(modes.slice(-4)).size).toBe(1);
  });

  it("time a measured statement's trial runs in the database alone, not the wait for the event loop after them", async () => {
    const fields = { body: note.body, mode };
    const slowToResume = modeById('embedded_note_slow_to_resume', fields, 'measured');
    const text = handle.db
      .select(fields)
      .from(note)
      .where(eq(note.id, sql.placeholder('id')))
      .toSQL().sql;
    // Each answer reaches the server 30 ms after the database gave it, as under load, when other
    // requests' work runs first.
    const answer = client.execProtocolStream.bind(client);
    const spy = vi.spyOn(client, 'execProtocolStream').mockImplementation(async (...args) => {
      const messages = await answer(...args);
      await new Promise((resolve) => setTimeout(resolve, 30));
      return messages;
    });
    try {
      const { warmUp, timed } = PLANNING_TRIAL;
      // The runs as PostgreSQL plans them (the generic plan's first run may end a trial at once).
      for (let run = 0; run < warmUp + timed; run++) await slowToResume.execute({ id: 1 });
      const trial = embeddedStatementFor(client, text)?.trial;
      expect(trial?.auto).toHaveLength(timed);
      for (const ms of trial?.auto ?? []) expect(ms).toBeLessThan(30);
    } finally {
      spy.mockRestore();
    }
  });
});
