import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database for one run; returns its name, URL and the server's version. */
export async function createScratchDatabase(): Promise<{ name: string; url: string; serverVersion: string }> {
  const name = `patientsim_bench_${randomBytes(5).toString('hex')}`;
  return withAdmin(async (client) => {
    const version = await client.query<{ server_version: string }>('show server_version');
    await client.query(`create database ${name}`);
    return {
      name,
      url: `postgres://postgres@127.0.0.1:5432/${name}`,
      serverVersion: version.rows[0]?.server_version ?? 'unknown',
    };
  });
}

export async function dropScratchDatabase(name: string): Promise<void> {
  if (!/^patientsim_bench_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
  await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
}

/** The PostgreSQL backend processes connected to `name` (all on this machine). */
export async function backendPids(name: string): Promise<number[]> {
  return withAdmin(async (client) => {
    const result = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name]);
    return result.rows.map((row) => row.pid);
  });
}
