import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { loadEnv } from '../../config/env.js';
import { createRateLimiter } from '../../lib/rate-limiter.js';
import { createMailer } from '../../mail/mailer.js';
import { openTestDatabase, TEST_PUBLIC_URL } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertUser, TEST_PASSWORD } from '../../../test/fixtures.js';
import { SIGN_IN_LOCKOUT, signInClientKey } from '../../identity/sign-in-limits.js';
import { LIMITS } from '../../lib/limits.js';
import { requireRedis, TEST_REDIS_URL } from '../../../test/redis.js';

// The sign-in limits of decision 0010, once with the in-memory counters and once with Redis.

const SIGN_IN = '/api/users/auth/sign-in';
const REDIS_URL = TEST_REDIS_URL;

await requireRedis();

/**
 * The app on a fresh database with the given counters. Redis counters live under a prefix of
 * their own, removed afterwards. `endLock` ends the lock of an account for one client address as
 * its expiry would: the memory counters by moving the (fake) clock on, Redis by checking the key's
 * TTL and removing the key.
 */
async function buildLimitsApp(store: 'memory' | 'redis') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-test-'));
  const env = loadEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openTestDatabase();
  const silent = { info() {}, error() {}, warn() {}, debug() {} } as never;
  const mailer = createMailer({ from: env.MAIL_FROM, outboxDir: null, log: silent });
  const redis = store === 'redis' ? new Redis(REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
  const prefix = `patientsim-test:${randomBytes(6).toString('hex')}`;
  const limiter = createRateLimiter({ redis, prefix });
  const app = await buildApp({ env, database, secret: randomBytes(32).toString('hex'), mailer, limiter });
  await app.ready();
  return {
    app,
    db: database.db,
    outbox: mailer.outbox,
    async endLock(email: string, ip: string, seconds: number) {
      if (!redis) {
        vi.setSystemTime(Date.now() + seconds * 1000 + 1000);
        return;
      }
      const key = `${prefix}:${LIMITS.signInClient.name}:${signInClientKey(email, { ip, deviceId: null })}`;
      const ttlSeconds = (await redis.pttl(key)) / 1000;
      expect(ttlSeconds).toBeGreaterThan(seconds - 5);
      expect(ttlSeconds).toBeLessThanOrEqual(seconds);
      await redis.del(key);
    },
    async close() {
      await app.close();
      if (redis) {
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

for (const store of ['memory', 'redis'] as const) {
  describe(`sign-in limits (${store} counters)`, () => {
    let t: Awaited<ReturnType<typeof buildLimitsApp>>;
    beforeAll(async () => {
      t = await buildLimitsApp(store);
    });
    afterAll(async () => {
      await t.close();
    });

    const lockMails = (to: string) => t.outbox.filter((m) => m.to === to && /trying to sign in/.test(m.subject));
    const pauseMails = (to: string) => lockMails(to).filter((m) => /several places/.test(m.text));

    it('gives no fresh guesses for a new X-Forwarded-For: 429 after 5 failures from one client', async () => {
      const user = await insertUser(t.db, { email: `rotating-${store}@example.test` });
      const client = createClient(t.app); // TRUSTED_PROXIES unset
      const attempt = (i: number) =>
        client.post(SIGN_IN, { email: user.email, password: 'Wrong-Pass-1' }, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      for (let i = 0; i < 5; i += 1) expect((await attempt(i)).statusCode).toBe(401);
      const limited = await attempt(5);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('RATE_LIMITED');
    });

    it('checks exactly 5 of 15 parallel wrong passwords from one client, refuses the rest', async () => {
      const user = await insertUser(t.db, { email: `parallel-${store}@example.test` });
      const client = createClient(t.app, { ip: '10.4.0.1' });
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) => client.post(SIGN_IN, { email: user.email, password: `Wrong-Pass-${i}` })),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      await vi.waitFor(() => expect(lockMails(user.email)).toHaveLength(1));
    });

    it('checks exactly the account-wide allowance of parallel wrong passwords from as many clients, refuses the rest', async () => {
      const user = await insertUser(t.db, { email: `parallel-many-${store}@example.test` });
      const count = LIMITS.signInAccount.max + 10;
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          createClient(t.app, { ip: `10.4.1.${i + 1}` }).post(SIGN_IN, { email: user.email, password: `Wrong-Pass-${i}` }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(LIMITS.signInAccount.max);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      await vi.waitFor(() => expect(pauseMails(user.email)).toHaveLength(1));
    });

    it('locks out only the client that guesses: the owner signs in from elsewhere', async () => {
      const user = await insertUser(t.db, { email: `elsewhere-${store}@example.test` });
      const guesser = createClient(t.app, { ip: '10.5.0.1' });
      for (let i = 0; i < 5; i += 1) {
        expect((await guesser.post(SIGN_IN, { email: user.email, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
      }
      expect((await guesser.post(SIGN_IN, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(429);
      const owner = createClient(t.app, { ip: '10.5.0.2' });
      expect((await owner.post(SIGN_IN, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('pauses new clients once many guess, but lets the owner’s known browser through, even from a new address', async () => {
      const user = await insertUser(t.db, { email: `distributed-${store}@example.test` });
      // The owner signed in from this browser before: it is known to the account.
      const ownerAtHome = createClient(t.app, { ip: '10.6.0.1' });
      expect((await ownerAtHome.post(SIGN_IN, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
      await ownerAtHome.post('/api/users/auth/sign-out');
      // Guessers from many addresses, each below its own limit, use up the account's allowance.
      for (let i = 0; i < LIMITS.signInAccount.max; i += 1) {
        const guesser = createClient(t.app, { ip: `10.6.1.${i + 1}` });
        expect((await guesser.post(SIGN_IN, { email: user.email, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
      }
      const newcomer = await createClient(t.app, { ip: '10.6.2.1' }).post(SIGN_IN, {
        email: user.email,
        password: TEST_PASSWORD,
      });
      expect(newcomer.statusCode).toBe(429);
      expect(Number(newcomer.headers['retry-after'])).toBeGreaterThan(0);
      await vi.waitFor(() => expect(pauseMails(user.email)).toHaveLength(1));
      expect(pauseMails(user.email)[0]?.text).toContain(`${TEST_PUBLIC_URL}/auth/reset-password`);

      // The owner's browser, on another network now, signs in.
      const ownerTravelling = createClient(t.app, { ip: '10.6.3.1' });
      for (const [name, value] of ownerAtHome.cookies) if (name.includes('.device.')) ownerTravelling.cookies.set(name, value);
      expect((await ownerTravelling.post(SIGN_IN, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
      // A device cookie is no master key: it counts for its own account only.
      const other = await insertUser(t.db, { email: `distributed-other-${store}@example.test` });
      for (let i = 0; i < 5; i += 1) await ownerTravelling.post(SIGN_IN, { email: other.email, password: 'Wrong-Pass-1' });
      expect((await ownerTravelling.post(SIGN_IN, { email: other.email, password: TEST_PASSWORD })).statusCode).toBe(429);
    });

    it('lifts the account’s pause and the resetting client’s lock with a password reset', async () => {
      const user = await insertUser(t.db, { email: `reset-lifts-${store}@example.test` });
      // The owner, on a new browser, locks it with typos; guessers elsewhere use up the account's allowance.
      const owner = createClient(t.app, { ip: '10.7.0.1' });
      for (let i = 0; i < 5; i += 1) {
        expect((await owner.post(SIGN_IN, { email: user.email, password: 'Wrong-Pass-2' })).statusCode).toBe(401);
      }
      for (let i = 5; i < LIMITS.signInAccount.max; i += 1) {
        const guesser = createClient(t.app, { ip: `10.7.1.${i + 1}` });
        expect((await guesser.post(SIGN_IN, { email: user.email, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
      }
      expect((await owner.post(SIGN_IN, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(429);
      const newcomer = createClient(t.app, { ip: '10.7.2.1' });
      expect((await newcomer.post(SIGN_IN, { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(429);

      expect((await owner.post('/api/users/auth/request-password-reset', { email: user.email })).statusCode).toBe(200);
      const mail = await vi.waitFor(() => {
        const found = t.outbox.find((m) => m.to === user.email && /Reset/.test(m.subject));
        if (!found) throw new Error('no reset mail');
        return found;
      });
      const token = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? '').searchParams.get('token');
      const reset = await owner.post('/api/users/auth/reset-password', { token, newPassword: 'Recovered-Pass-2026' });
      expect(reset.statusCode).toBe(200);
      expect((await owner.post(SIGN_IN, { email: user.email, password: 'Recovered-Pass-2026' })).statusCode).toBe(200);
      // New clients are counted afresh too: the owner on another new browser signs in.
      expect((await newcomer.post(SIGN_IN, { email: user.email, password: 'Recovered-Pass-2026' })).statusCode).toBe(200);
    });

    it('locks the account longer each time and mails its owner once a lockout', async () => {
      const user = await insertUser(t.db, { email: `lockout-${store}@example.test` });
      const client = createClient(t.app, { ip: '10.3.0.1' });
      const attempt = (password = 'Wrong-Pass-1') => client.post(SIGN_IN, { email: user.email, password });
      // Memory counters follow the clock: a fake one moves past a lock without waiting.
      if (store === 'memory') vi.useFakeTimers({ toFake: ['Date'] });
      try {
        for (let i = 0; i < 5; i += 1) expect((await attempt()).statusCode).toBe(401);
        const first = await attempt();
        expect(first.statusCode).toBe(429);
        const firstSeconds = Number(first.headers['retry-after']);
        expect(firstSeconds).toBe(SIGN_IN_LOCKOUT.firstSeconds);
        expect((await attempt()).statusCode).toBe(429);
        expect((await attempt(TEST_PASSWORD)).statusCode).toBe(429);
        await vi.waitFor(() => expect(lockMails(user.email)).toHaveLength(1));

        await t.endLock(user.email, '10.3.0.1', firstSeconds);
        for (let i = 0; i < 5; i += 1) expect((await attempt()).statusCode).toBe(401);
        const second = await attempt();
        expect(second.statusCode).toBe(429);
        const secondSeconds = Number(second.headers['retry-after']);
        expect(secondSeconds).toBe(2 * firstSeconds);
        expect((await attempt()).statusCode).toBe(429);
        await vi.waitFor(() => expect(lockMails(user.email)).toHaveLength(2));

        const [firstMail, secondMail] = lockMails(user.email);
        expect(firstMail?.text).toContain('paused for 15 minutes');
        expect(firstMail?.text).toContain(`${TEST_PUBLIC_URL}/auth/reset-password`);
        expect(firstMail?.html).toContain('Reset my password');
        expect(secondMail?.text).toContain('paused for 30 minutes');

        // The owner, once the lock is over, signs in and starts afresh: the next lockout is a first one again.
        await t.endLock(user.email, '10.3.0.1', secondSeconds);
        expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
        for (let i = 0; i < 5; i += 1) expect((await attempt()).statusCode).toBe(401);
        expect(Number((await attempt()).headers['retry-after'])).toBe(SIGN_IN_LOCKOUT.firstSeconds);
        await vi.waitFor(() => expect(lockMails(user.email)).toHaveLength(3));
      } finally {
        vi.useRealTimers();
      }
    });

    it('locks an unknown address the same way and with the same answer, but mails nobody', async () => {
      const known = await insertUser(t.db, { email: `known-${store}@example.test` });
      const lockOut = async (email: string, ip: string) => {
        const client = createClient(t.app, { ip });
        for (let i = 0; i < 5; i += 1) {
          expect((await client.post(SIGN_IN, { email, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
        }
        return client.post(SIGN_IN, { email, password: 'Wrong-Pass-1' });
      };
      const unknown = await lockOut(`unknown-${store}@example.test`, '10.3.1.1');
      const locked = await lockOut(known.email, '10.3.1.2');
      expect(unknown.statusCode).toBe(429);
      expect(unknown.json()).toEqual(locked.json());
      expect(unknown.headers['retry-after']).toBe(locked.headers['retry-after']);
      // The known owner's mail went out after the unknown address's lock: none came for it.
      await vi.waitFor(() => expect(lockMails(known.email)).toHaveLength(1));
      expect(t.outbox.filter((m) => m.to === `unknown-${store}@example.test`)).toHaveLength(0);
    });
  });
}
