import { mkdirSync } from 'node:fs';
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

/** Embedded PGlite, file-backed in `dir`, or in memory when `dir` is null (tests). */
export async function openPglite(dir: string | null): Promise<DatabaseHandle> {
  if (dir) mkdirSync(dir, { recursive: true });
  const options = { extensions: PGLITE_EXTENSIONS };
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
