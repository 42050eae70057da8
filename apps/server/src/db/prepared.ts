import { PGlite } from '@electric-sql/pglite';
import { Column, is, SQL, Subquery } from 'drizzle-orm';
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
    mapFlatRows(statement);
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

type SelectedField = { path: string[]; field: unknown };
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** An SQL's decoder: drizzle's own, left out of its published types. */
const decoderOfSql = (value: SQL) => (value as unknown as { decoder: Decoder }).decoder;

/** The decoder drizzle reads a selected field's values with (as its `mapResultRow` finds it). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field as unknown as { _: { sql: SQL } })._.sql);
  return decoderOfSql((field as SQL.Aliased).sql);
}

/**
 * Has a prepared select of flat fields (no nested objects) map its rows with each field's decoder
 * found once, when the statement is built. Drizzle finds it again for every field of every row
 * (four class checks each): with a page of 51 cases of 25 fields that was a tenth of the server's
 * CPU on PostgreSQL. Each row is the same object drizzle would have made.
 */
export function mapFlatRows(statement: unknown): void {
  const query = statement as { fields?: SelectedField[]; customResultMapper?: (rows: unknown[][]) => unknown };
  const { fields } = query;
  if (!fields || query.customResultMapper || fields.some(({ path }) => path.length !== 1)) return;
  const keys = fields.map(({ path }) => path[0] as string);
  const decoders = fields.map(({ field }) => decoderOf(field));
  query.customResultMapper = (rows) =>
    rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let index = 0; index < keys.length; index += 1) {
        const value = values[index];
        row[keys[index] as string] = value === null ? null : (decoders[index] as Decoder).mapFromDriverValue(value);
      }
      return row;
    });
}
