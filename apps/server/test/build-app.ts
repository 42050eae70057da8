import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadEnv } from '../src/config/env.js';
import { type DatabaseHandle, openPglite, openPostgres } from '../src/db/client.js';
import { createMailer } from '../src/mail/mailer.js';
import type { LoadSheddingOptions } from '../src/plugins/external/under-pressure.js';
import { cleanUpAfterFile } from './cleanup.js';

export const TEST_PUBLIC_URL = 'http://localhost:3999';

/** A fresh database: in-memory PGlite, or a new PostgreSQL database when TEST_DATABASE_URL is set. */
export async function openTestDatabase(): Promise<DatabaseHandle & { drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // A copy of the database the run migrated once (test/global-setup.ts), else one migrated here.
    const template = inject('pgliteTemplate');
    if (template) {
      const handle = await openPglite(null, { loadDataDir: new Blob([readFileSync(template)]) });
      return { ...handle, drop: handle.close };
    }
    const handle = await openPglite(null);
    await handle.migrate();
    return { ...handle, drop: handle.close };
  }
  const name = `patientsim_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), { max: 4 });
  await handle.migrate();
  return {
    ...handle,
    drop: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/**
 * Builds the app on a fresh database, closed and dropped after the file. E-mails go to `outbox`.
 */
export async function buildTestApp({
  env: overrides = {},
  webRoot,
  loadShedding,
  logger,
}: {
  env?: Record<string, string>;
  webRoot?: string;
  /** Overload protection; off in tests unless one turns it on (decisions 0018 and 0047). */
  loadShedding?: Partial<LoadSheddingOptions>;
  /** The app's logger; none by default (a test of what the server logs passes its own). */
  logger?: FastifyServerOptions['logger'];
} = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-test-'));
  const env = loadEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...overrides });
  const database = await openTestDatabase();
  const silent = { info() {}, error() {}, warn() {}, debug() {} } as never;
  const mailer = createMailer({ from: env.MAIL_FROM, outboxDir: null, log: silent });
  const secret = randomBytes(32).toString('hex');
  const routes: Array<{ method: string; url: string }> = [];
  const onRoute = ({ method, url }: { method: string | string[]; url: string }) => {
    for (const m of [method].flat()) routes.push({ method: m, url });
  };
  const app = await buildApp({
    env,
    database,
    secret,
    mailer,
    onRoute,
    ...(webRoot ? { webRoot } : {}),
    ...(loadShedding ? { loadShedding } : {}),
    ...(logger ? { logger } : {}),
  });
  await app.ready();
  cleanUpAfterFile(async () => {
    await app.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, db: database.db, engine: database.engine, outbox: mailer.outbox, secret, routes };
}
