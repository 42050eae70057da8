import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openPostgres } from '../src/db/client.js';

/**
 * The PostgreSQL server for tests that need one whatever the suite runs on (several server
 * processes cannot share the embedded database): TEST_DATABASE_URL when set, else the local
 * server `.ci/run` starts.
 */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A new, empty PostgreSQL database (not migrated) on the test server, dropped by `drop`. A missing
 * server fails the file with a clear message instead of skipping what only PostgreSQL can prove.
 */
export async function createScratchPostgres(): Promise<{ url: string; open: () => DatabaseHandle; drop: () => Promise<void> }> {
  const name = `patientsim_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    throw new Error(
      `These tests need PostgreSQL at ${TEST_POSTGRES_URL} (start it, e.g. "pg_ctlcluster 15 main start", or set TEST_DATABASE_URL)`,
      { cause: error },
    );
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    open: () => openPostgres(url.toString(), { max: 2 }),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
