import type { Database } from './client.js';

const built = new WeakMap<Database, Map<string, unknown>>();

/**
 * A named statement of the hot read paths, built once per database object (the server's, or a
 * transaction's) instead of once per call. On PostgreSQL each pooled connection parses it once and
 * then reuses the plan (after five executions, a generic one), which saves drizzle's query building
 * in the server and the planning in the database on every request: about a millisecond each for
 * the member list (decision 0024). `name` must stand for one SQL text: the builder's variants get
 * names of their own.
 */
export function prepared<T>(db: Database, name: string, build: (name: string) => T): T {
  let byName = built.get(db);
  if (!byName) {
    byName = new Map();
    built.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(name);
    byName.set(name, statement);
  }
  return statement;
}
