import { PGlite } from '@electric-sql/pglite';
import type { Database } from './client.js';
import { nameEmbeddedStatement } from './embedded-statements.js';
import { planPostgresStatement } from './postgres-statements.js';
import type { StatementPlanning } from './statement-planning.js';

const built = new WeakMap<Database, Map<string, unknown>>();

/**
 * A named statement of the hot read paths, built once per database object (the server's, or a
 * transaction's) instead of once per call. On PostgreSQL each pooled connection parses it once and
 * then reuses the plan (after five executions, a generic one), which saves drizzle's query building
 * in the server and the planning in the database on every request: about a millisecond each for
 * the member list (decision 0024). `name` must stand for one SQL text: the builder's variants get
 * names of their own. `planning` says how the database plans its runs (StatementPlanning), on either
 * engine.
 */
export function prepared<T>(
  db: Database,
  name: string,
  build: (name: string) => T,
  { planning = 'auto' }: { planning?: StatementPlanning } = {},
): T {
  let byName = built.get(db);
  if (!byName) {
    byName = new Map();
    built.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(name);
    nameOnEmbeddedEngine(db, statement, planning);
    planPostgresStatement((db as { $client?: unknown }).$client, statement, planning);
    byName.set(name, statement);
  }
  return statement;
}

/**
 * On the embedded engine, has the database run a drizzle prepared statement as a named statement
 * too (`db/embedded-statements.ts`); node-postgres names it itself. A transaction's database object
 * runs its statements unnamed.
 */
export function nameOnEmbeddedEngine(db: Database, statement: unknown, planning: StatementPlanning = 'auto'): void {
  const client = embeddedClientOf(db);
  const text = (statement as { queryString?: unknown }).queryString;
  if (client && typeof text === 'string') nameEmbeddedStatement(client, text, planning);
}

/** The embedded engine's client under `db`, or null on PostgreSQL. */
function embeddedClientOf(db: Database): PGlite | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : null;
}

/** Whether `db` runs on the embedded engine (PGlite). */
export function isEmbeddedEngine(db: Database): boolean {
  return embeddedClientOf(db) !== null;
}
