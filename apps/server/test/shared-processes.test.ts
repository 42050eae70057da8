import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadEnv } from '../src/config/env.js';
import { createMailer } from '../src/mail/mailer.js';
import { openTestDatabase, TEST_PUBLIC_URL } from './build-app.js';
import { createClient } from './client.js';
import { insertUser, TEST_PASSWORD } from './fixtures.js';
import { requireRedis, TEST_REDIS_URL } from './redis.js';

/**
 * Two server processes behind a load balancer share the database and Redis: an ended session is
 * refused by the other one at once (its read cache is cleared through Redis), not after the
 * cache's lifetime. The cache lifetime here is an hour, so only the invalidation can explain it.
 */
await requireRedis();

const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-test-'));
const database = await openTestDatabase();
const secret = randomBytes(32).toString('hex');
const silent = { info() {}, error() {}, warn() {}, debug() {} } as never;
const build = () =>
  buildApp({
    env: loadEnv({
      NODE_ENV: 'test',
      PUBLIC_URL: TEST_PUBLIC_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      REDIS_URL: TEST_REDIS_URL,
    }),
    database,
    secret,
    mailer: createMailer({ from: 'PatientSim <no-reply@localhost>', outboxDir: null, log: silent }),
    cacheTtlMs: 3_600_000,
  });
const [first, second] = [await build(), await build()];

beforeAll(async () => {
  await Promise.all([first.ready(), second.ready()]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('several processes', () => {
  it('refuse a token on every process once its session ends on one', async () => {
    const person = await insertUser(database.db, { email: `shared-${randomBytes(4).toString('hex')}@example.test` });
    const browser = createClient(first, { ip: '10.95.0.1' });
    expect((await browser.post('/api/users/auth/sign-in', { email: person.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    const token = (await browser.post('/api/users/auth/token')).json().idToken as string;
    const onSecond = createClient(second, { ip: '10.95.0.2' });
    onSecond.setBearer(token);
    // The second process has the session and the claims in its cache now.
    expect((await onSecond.get('/api/users/notifications/pending')).statusCode).toBe(200);

    expect((await browser.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        const response = await onSecond.get('/api/users/notifications/pending');
        expect(response.json().code).toBe('SESSION_ENDED');
      },
      { timeout: 1000, interval: 20 },
    );
  });
});
