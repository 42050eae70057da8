import type { Database } from './client.js';

const built = new WeakMap<Database, Map<string, unknown>>();

/**
 * A drizzle prepared statement (`.prepare(name)`) of a hot read path, built once per database
 * object (the server's, or a transaction's) instead of on every call: drizzle builds its SQL text
 * once, and on PostgreSQL each pooled connection parses the named statement once and plans it as
 * PostgreSQL plans any named statement. `name` must stand for one SQL text: a builder with variants
 * gives each its own name.
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
