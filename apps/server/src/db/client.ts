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
  close: () => Promise<void>;
};

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PostgreSQL over a pool; used when DATABASE_URL is set. */
export function openPostgres(url: string, { max = 10 }: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max });
  const db = drizzlePg(pool, { schema });
  return {
    db,
    engine: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => pool.end(),
  };
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

/** Embedded PGlite, file-backed in `dir`, or in memory when `dir` is null (tests). */
export async function openPglite(dir: string | null): Promise<DatabaseHandle> {
  if (dir) mkdirSync(dir, { recursive: true });
  const options = {
    extensions: PGLITE_EXTENSIONS,
    startParams: [
      ...PGlite.defaultStartParams,
      ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
  };
  const client = dir ? new PGlite(dir, options) : new PGlite(options);
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    engine: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
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
