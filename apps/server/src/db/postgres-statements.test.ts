import { eq, sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScratchPostgres } from '../../test/postgres.js';
import type { DatabaseHandle } from './client.js';
import { genericPlanOptions, POSTGRES_PLANNING_TRIAL } from './postgres-statements.js';
import { prepared } from './prepared.js';
import type { StatementPlanning } from './statement-planning.js';

const note = pgTable('planned_note', {
  id: integer('id').primaryKey(),
  body: text('body'),
  tags: text('tags').array(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
});

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  scratch = await createScratchPostgres();
  handle = scratch.open();
  await handle.db.execute(sql`create table planned_note (id integer primary key, body text, tags text[], at timestamptz)`);
  await handle.db.execute(
    sql`insert into planned_note values (1, 'it''s', '{a,"b,c","d\\"e"}', '2026-03-04T05:06:07.089Z'), (2, null, null, null)`,
  );
});

afterAll(async () => {
  await handle?.close();
  await scratch?.drop();
});

/** The session's plan_cache_mode, as a statement reads it. */
const mode = sql<string>`current_setting('plan_cache_mode')`;

/**
 * A named statement of the note whose id, body, tags and time match, with the mode it ran in,
 * planned as `planning` says: its parameters are of every kind the list's statements bind.
 */
const modeOfMatch = (name: string, planning: StatementPlanning) =>
  prepared(
    handle.db,
    name,
    (statementName) =>
      handle.db
        .select({ id: note.id, mode })
        .from(note)
        .where(
          sql`${note.id} = ${sql.placeholder('id')} and ${note.body} is not distinct from ${sql.placeholder('body')}::text
              and ${note.tags} = ${sql.placeholder('tags')}::text[] and ${note.at} = ${sql.placeholder('at')}::timestamptz`,
        )
        .prepare(statementName),
    { planning },
  );
const matching = { id: 1, body: "it's", tags: ['a', 'b,c', 'd"e'], at: new Date('2026-03-04T05:06:07.089Z') };

describe('named statements on PostgreSQL', () => {
  it('run a generic statement on sessions that plan generically, and any other as PostgreSQL does by default', async () => {
    const generic = modeOfMatch('planned_generic', 'generic');
    const auto = modeOfMatch('planned_auto', 'auto');
    expect(await generic.execute(matching)).toEqual([{ id: 1, mode: 'force_generic_plan' }]);
    expect(await auto.execute(matching)).toEqual([{ id: 1, mode: 'auto' }]);
    // An unnamed statement, and a transaction's, on the server's own pool.
    expect(await handle.db.select({ mode }).from(note).where(eq(note.id, 2))).toEqual([{ mode: 'auto' }]);
    expect(await handle.db.transaction((tx) => tx.select({ mode }).from(note).where(eq(note.id, 2)))).toEqual([{ mode: 'auto' }]);
  });

  it('try a measured statement both ways, timed by PostgreSQL, then keep one way, answering the same rows throughout', async () => {
    const measured = modeOfMatch('planned_measured', 'measured');
    const { warmUp, timed } = POSTGRES_PLANNING_TRIAL;
    const modes: string[] = [];
    for (let run = 0; run < warmUp + 2 * timed + 1 + 4; run++) {
      const rows = await measured.execute(matching);
      expect(rows.map((row) => row.id)).toEqual([1]);
      modes.push(rows[0]?.mode ?? 'none');
    }
    // PostgreSQL's own planning first, then the generic plan (the trial may end there, had that run
    // been slow), then one mode, whichever PostgreSQL timed faster.
    expect(modes.slice(0, warmUp + timed)).toEqual(Array(warmUp + timed).fill('auto'));
    expect(modes[warmUp + timed]).toBe('force_generic_plan');
    expect(new Set(modes.slice(-4)).size).toBe(1);
  });

  it("answer as usual and keep PostgreSQL's own planning when PostgreSQL cannot time a run", async () => {
    const measured = modeOfMatch('planned_measured_untimed', 'measured');
    const { warmUp, timed } = POSTGRES_PLANNING_TRIAL;
    // Every literal of the timing run unreadable as a number: its EXPLAIN fails.
    const unreadable = vi.spyOn(pg, 'escapeLiteral').mockReturnValue("'not a number'");
    try {
      const modes: string[] = [];
      for (let run = 0; run < warmUp + 2 * timed + 2; run++) {
        const rows = await measured.execute(matching);
        expect(rows.map((row) => row.id)).toEqual([1]);
        modes.push(rows[0]?.mode ?? 'none');
      }
      expect(unreadable).toHaveBeenCalled();
      expect(new Set(modes)).toEqual(new Set(['auto']));
    } finally {
      unreadable.mockRestore();
    }
  });

  it('keep a null parameter null in the trial', async () => {
    const measured = modeOfMatch('planned_measured_null', 'measured');
    const { warmUp, timed } = POSTGRES_PLANNING_TRIAL;
    for (let run = 0; run < warmUp + 2 * timed + 2; run++) {
      expect(await measured.execute({ ...matching, id: 2, body: null, tags: null, at: null })).toEqual([]);
    }
  });
});

describe('the connection options of the sessions that plan generically', () => {
  it("add the plan cache mode to the environment's options", () => {
    expect(genericPlanOptions(undefined)).toBe('-c plan_cache_mode=force_generic_plan');
    expect(genericPlanOptions('-c search_path=app')).toBe('-c search_path=app -c plan_cache_mode=force_generic_plan');
  });
});
