import { createRequire } from 'node:module';
import pg from 'pg';
import {
  afterTrialRun,
  type PlanCacheMode,
  type StatementPlanning,
  type Trial,
  type TrialPlan,
  trialMode,
} from './statement-planning.js';

/**
 * Named statements on PostgreSQL, planned as `db/prepared.ts` asks. PostgreSQL has no per-statement
 * choice of plan, only the session's plan_cache_mode, and a pooled session serves every statement.
 * So the server keeps a second pool whose sessions plan every named statement generically
 * (`plan_cache_mode = force_generic_plan`, set as each one connects, so it costs no round trip): a
 * `generic` statement runs there, a `measured` one runs its trial (statement-planning.ts) in both
 * pools and then stays in the pool it ran faster in. The second pool opens its connections on
 * first use only, and closes idle ones as the first does.
 *
 * A trial run is timed by PostgreSQL, not here: under load, the round trip of a statement of 3 ms
 * took 3 to 12 ms, most of it the wait for this process's event loop and for a core. After the
 * statement has answered, the same connection runs it once more under `EXPLAIN (ANALYZE)`, whose
 * planning and execution times are the sample. So `measured` is for statements that only read.
 */

/** The pools whose server has a pool for generic plans, and how to reach that one (opened on first use). */
const genericPools = new WeakMap<pg.Pool, () => pg.Pool>();

/** Has the statements named on `pool` reach `generic` (opened on first call) for their generic plans. */
export function setGenericPool(pool: pg.Pool, generic: () => pg.Pool): void {
  genericPools.set(pool, generic);
}

/** The connection options of the pool for generic plans: the environment's, and the plan cache mode. */
export function genericPlanOptions(environment: string | undefined = process.env.PGOPTIONS): string {
  return [environment, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' ');
}

type QueryConfig = { name?: string; text: string };

/** node-postgres's own conversion of a parameter to the text it sends (arrays, dates, objects). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

/** A parameter as a literal of an `EXECUTE`, as node-postgres would have sent it. */
function literal(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return 'null';
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString('hex')}'`;
  // prepareValue answers text for every other value (objects as JSON).
  return pg.escapeLiteral(prepared as string);
}

type ExplainPlan = [{ 'Planning Time'?: number; 'Execution Time'?: number }];

/** Planning and execution time (ms) of one more run of the named statement on `client`, as PostgreSQL measured them. */
async function timedByPostgres(client: pg.PoolClient, name: string, values: readonly unknown[]): Promise<number> {
  const args = values.length > 0 ? `(${values.map(literal).join(', ')})` : '';
  const { rows } = await client.query<{ 'QUERY PLAN': ExplainPlan }>(
    `explain (analyze, timing off, summary on, format json) execute ${pg.escapeIdentifier(name)}${args}`,
  );
  const [plan] = rows[0]?.['QUERY PLAN'] ?? [];
  return (plan?.['Planning Time'] ?? 0) + (plan?.['Execution Time'] ?? 0);
}

/**
 * The trial on PostgreSQL: as on the embedded engine, with more runs timed each way, since the
 * times PostgreSQL reports still stretch when its process waits for a core under load (a
 * statement of 1.6 ms once read 3.8 ms).
 */
export const POSTGRES_PLANNING_TRIAL: TrialPlan = { warmUp: 5, timed: 7, genericShare: 0.9, abandonAfter: 3 };

/** Whether run `runs` of a trial is timed (the first run on the generic plan is, for the abandon rule). */
const isSampled = (runs: number) => runs >= POSTGRES_PLANNING_TRIAL.warmUp;

/**
 * One run of a `measured` statement during its trial, on a connection of `pool`: the statement
 * itself, then (once the warm-up runs are over) PostgreSQL's own time of one more run of it. A
 * timing that fails is null: the caller's answer never depends on the measurement.
 */
async function trialRun(pool: pg.Pool, config: QueryConfig & { name: string }, values: unknown[] | undefined, sample: boolean) {
  const client = await pool.connect();
  try {
    const result = await client.query(config, values);
    const ms = sample ? await timedByPostgres(client, config.name, values ?? []).catch(() => null) : 0;
    client.release();
    return { result, ms };
  } catch (error) {
    // As the pool's own query does: a connection that failed a query is not reused.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/**
 * Has a drizzle prepared statement of `pool`'s database run as `planning` says: in the pool for
 * generic plans, or in the pool its trial found faster. A statement of another client (a
 * transaction's) or of a server without the second pool runs as PostgreSQL plans by default.
 */
export function planPostgresStatement(pool: unknown, statement: unknown, planning: StatementPlanning): void {
  if (planning === 'auto') return;
  const generic = genericPools.get(pool as pg.Pool);
  const target = statement as { client?: unknown };
  if (!generic || target.client !== pool) return;
  const main = pool as pg.Pool;
  const poolOf = (mode: PlanCacheMode) => (mode === 'generic' ? generic() : main);
  let chosen: PlanCacheMode | undefined = planning === 'generic' ? 'generic' : undefined;
  let trial: Trial = { runs: 0, auto: [], generic: [] };
  target.client = {
    query: async (config: QueryConfig, values?: unknown[]) => {
      if (chosen || config.name === undefined) return poolOf(chosen ?? 'auto').query(config, values);
      const runs = trial.runs;
      const mode = trialMode(runs, POSTGRES_PLANNING_TRIAL);
      // Counted as it starts: runs that overlap each take the next place in the trial.
      trial = { ...trial, runs: runs + 1 };
      const { result, ms } = await trialRun(poolOf(mode), { ...config, name: config.name }, values, isSampled(runs));
      if (ms === null) {
        // PostgreSQL could not time it: the statement keeps PostgreSQL's own planning.
        chosen = 'auto';
      } else if (!chosen) {
        const next = afterTrialRun({ ...trial, runs }, mode, ms, POSTGRES_PLANNING_TRIAL);
        if (next.chosen) chosen = next.chosen;
        else trial = { ...next.trial, runs: trial.runs };
      }
      return result;
    },
  };
}
