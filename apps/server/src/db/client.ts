import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PGLITE_EXTENSIONS } from './extensions.js';
import * as schema from './schema/index.js';

/** One drizzle type for both engines: the app only uses what PostgreSQL and PGlite share. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseHandle = {
  db: Database;
  engine: 'pglite' | 'postgres';
  migrate: () => Promise<void>;
  /**
   * Runs `work` (the migrations and the seed) while no other server process on the same database
   * does: processes of one deployment started at once prepare it one after another.
   */
  exclusively: <T>(work: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

/** The PostgreSQL advisory lock that serialises preparing a database (any constant of our own). */
const PREPARATION_LOCK = 740_215_903_118;

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PostgreSQL over a pool; used when DATABASE_URL is set. */
export function openPostgres(url: string, { max = 10 }: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max });
  const db = drizzlePg(pool, { schema });
  return {
    db,
    engine: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    exclusively: async (work) => {
      // A session lock, on a connection of its own for as long as the work runs.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [PREPARATION_LOCK]);
        try {
          return await work();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [PREPARATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    close: () => endPool(pool),
  };
}

/**
 * Ends a pool once each of its connections has closed. pg's own `end` answers as soon as it has
 * asked them to close: a database dropped right after (as tests drop theirs) would end them
 * itself, and each would fail as an error that nobody handles.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}

/**
 * How PGlite sizes its memory. Its WebAssembly heap never shrinks, and PostgreSQL touches all of
 * its shared buffers as it starts: every MB here is resident for the life of the process. The
 * defaults (128 MB of buffers, 64 MB for index builds) are sized for a database server; one
 * process on a demo-sized database needs far less, and a block missing from the buffers is read
 * from the operating system's file cache, not from disk (decision 0017).
 */
const PGLITE_SETTINGS = {
  shared_buffers: '32MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '2MB',
} as const;

/** Where the embedded database lives in the data directory. */
export const embeddedDatabaseDir = (dataDir: string) => path.join(dataDir, 'pglite');

/**
 * Whether the embedded engine failed in a way it does not recover from while the process runs
 * (decision 0036):
 * - PANIC or FATAL: PostgreSQL would start a new backend; PGlite has only its one, whose next query
 *   never returns;
 * - a data file it could not open, read or write: SQLSTATE class 58 (system error), or 42501 (the
 *   engine's only role is its superuser, so a refusal comes from the file system). PGlite's file
 *   layer keeps refusing a file it once could not open, even once the file is readable again;
 * - its WebAssembly module aborted.
 * The error may come raw or wrapped (drizzle puts the engine's error in `cause`).
 */
export function isEngineBroken(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    const { code, severity, name } = current as { code?: unknown; severity?: unknown; name?: unknown };
    // WebAssembly.RuntimeError: the module aborted.
    if (name === 'RuntimeError') return true;
    if (severity === 'PANIC' || severity === 'FATAL') return true;
    if (typeof code === 'string' && (code.startsWith('58') || code === '42501')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Embedded PGlite, file-backed in `dir`, or in memory when `dir` is null (tests). `onBroken` hears
 * every error after which the engine cannot be trusted until the process restarts (`isEngineBroken`).
 * `loadDataDir` starts it from a copy of another database's files (PGlite's `dumpDataDir`), which
 * skips creating a database cluster: the tests open one migrated copy per file.
 */
export async function openPglite(
  dir: string | null,
  { onBroken, loadDataDir }: { onBroken?: (error: unknown) => void; loadDataDir?: Blob } = {},
): Promise<DatabaseHandle & { dumpDataDir: () => Promise<Blob> }> {
  if (dir) mkdirSync(dir, { recursive: true });
  const options = {
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: PGLITE_EXTENSIONS,
    startParams: [
      ...PGlite.defaultStartParams,
      ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
  };
  const client = dir ? new PGlite(dir, options) : new PGlite(options);
  await client.waitReady;
  // Every statement of the app goes through `query` or `transaction` (a failure inside a
  // transaction ends it): the one place that sees every error of the engine.
  const watch = <T>(running: Promise<T>): Promise<T> =>
    running.catch((error: unknown) => {
      if (onBroken && isEngineBroken(error)) onBroken(error);
      throw error;
    });
  const query = client.query.bind(client);
  client.query = (...args) => watch(query(...args));
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) => watch(transaction(callback));
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    engine: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // One process at a time opens an embedded database (the data directory's lock).
    exclusively: (work) => work(),
    close: () => client.close(),
    // Uncompressed: the copy is read back at once, on the same machine.
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

/** The tag of the last migration this build ships (such as `0006_group_about`). */
export function latestMigrationTag(): string {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.at(-1);
  if (!last) throw new Error('the migrations journal lists no migration');
  return last.tag;
}
