import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, MIGRATIONS_FOLDER } from '../src/db/client.js';
import { user } from '../src/db/schema/auth.js';
import { READ_CACHE_TTL_MS } from '../src/lib/read-cache.js';
import { insertGroup, insertMember, insertUser } from './fixtures.js';
import { createScratchPostgres } from './postgres.js';
import { requireRedis, testRedisUrlOnDatabase } from './redis.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

/**
 * Two real server processes share one PostgreSQL database and one Redis, as behind a load
 * balancer. A sign-out, a password reset, a removal from an organisation, a role change or a new
 * second-factor requirement answered by one process is refused by the other within 100 ms of that answer: the other process is asked
 * back to back from the answer on, and the first request it refuses was sent less than 100 ms
 * after it.
 *
 * The other process has just read (and cached) what the change makes stale, less than the read
 * cache's lifetime before it refuses: only the change's announcement through Redis can explain the
 * refusal, not an expired entry. The processes use a Redis database of their own, whose channel no
 * other test announces on.
 */
const REFUSED_WITHIN_MS = 100;
const PUBLIC_URL = 'http://localhost:3999';

await requireRedis();
const scratch = await createScratchPostgres();
const redisUrl = testRedisUrlOnDatabase(1 + randomInt(15));
const secret = randomBytes(32).toString('hex');
const dataDirs: string[] = [];
let first: ServerProcess;
let second: ServerProcess;
let database: DatabaseHandle;

/**
 * Both processes get the same database, Redis, secret and public URL; each its own data directory.
 * They start at once on the empty database, as a deployment starts its processes: one migrates and
 * seeds it, the other waits and finds nothing left to do.
 */
function startProcess() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-processes-'));
  dataDirs.push(dataDir);
  return startServerProcess({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch.url,
    REDIS_URL: redisUrl,
    AUTH_SECRET: secret,
    PUBLIC_URL,
    SEED: 'demo',
  });
}

beforeAll(async () => {
  [first, second] = await Promise.all([startProcess(), startProcess()]);
  database = scratch.open();
  // The first requests of a fresh process are slow (code still being compiled): made here, they do
  // not stretch the time between a read and a change below.
  const person = await insertUser(database.db, { email: newAddress('warm-up') });
  const browser = createBrowser();
  for (const server of [first, second]) {
    await browser.signIn(server, person);
    for (const url of ['/api/users/notifications/pending', `/api/users/extension/users/${person.id}/groups`]) {
      expect((await browser.get(server, url)).status).toBe(200);
    }
  }
}, 120_000);

afterAll(async () => {
  const codes = await Promise.all([first?.stop(), second?.stop()]);
  await database?.close();
  await scratch.drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  expect(codes).toEqual([0, 0]);
}, 60_000);

type Answer = { status: number; body: { code?: string; idToken?: string } & Record<string, unknown> };

/** A browser (or a stolen copy of its cookie and token) whose requests the balancer sends to either process. */
function createBrowser(cookies = new Map<string, string>(), initialBearer: string | null = null) {
  let bearer = initialBearer;
  const request = async (server: ServerProcess, method: string, url: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.origin}${url}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.trim().split(/=(.*)/s);
      const isExpired = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (isExpired) cookies.delete(name);
      else cookies.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
  };
  return {
    get: (server: ServerProcess, url: string) => request(server, 'GET', url),
    post: (server: ServerProcess, url: string, body?: unknown) => request(server, 'POST', url, body),
    patch: (server: ServerProcess, url: string, body: unknown) => request(server, 'PATCH', url, body),
    put: (server: ServerProcess, url: string, body: unknown) => request(server, 'PUT', url, body),
    delete: (server: ServerProcess, url: string, body: unknown) => request(server, 'DELETE', url, body),
    /** Signs in and takes an ID token, both on `server`. */
    async signIn(server: ServerProcess, account: { email: string; password: string }) {
      expect((await request(server, 'POST', '/api/users/auth/sign-in', account)).status).toBe(200);
      const token = await request(server, 'POST', '/api/users/auth/token');
      expect(token.status).toBe(200);
      bearer = token.body.idToken ?? null;
    },
    /** What someone holding a copy of this browser's cookie and token would send from now on. */
    copy: () => createBrowser(new Map(cookies), bearer),
  };
}

/**
 * Asks `isRefused` back to back, without pauses, until it holds: when the first refused request was
 * sent, and when its answer arrived. Fails after 5 s.
 */
async function waitForRefusal(isRefused: () => Promise<boolean>): Promise<{ sentAt: number; refusedAt: number }> {
  const startedAt = performance.now();
  for (;;) {
    const sentAt = performance.now();
    if (await isRefused()) return { sentAt, refusedAt: performance.now() };
    if (sentAt - startedAt > 5_000) throw new Error('still accepted 5 s after the change');
  }
}

type Timing = { readAt: number; answeredAt: number; refusal: { sentAt: number; refusedAt: number } };

/** Attempts at a change fast enough to tell the announcement from an expired cache entry. */
const MAX_ATTEMPTS = 5;

/**
 * Runs `scenario` (a read on the second process at `readAt`, a change answered by the first at
 * `answeredAt`, then requests to the second until one is refused) and expects that a request sent
 * 100 ms after the answer is refused: the first refused one was sent sooner.
 *
 * That must not be the read's cache entry expiring: the change is answered less than half the
 * cache's lifetime after the read (a slower one, on a busy machine, proves nothing and runs again
 * with new accounts), and the refusal arrives before the entry could have expired.
 */
async function expectRefusedInTime(scenario: () => Promise<Timing>) {
  for (let attempt = 1; ; attempt += 1) {
    const { readAt, answeredAt, refusal } = await scenario();
    const isConclusive = answeredAt - readAt < READ_CACHE_TTL_MS / 2;
    if (!isConclusive && attempt < MAX_ATTEMPTS) continue;
    expect(answeredAt - readAt, 'ms from the read to the change answered').toBeLessThan(READ_CACHE_TTL_MS / 2);
    expect(refusal.sentAt - answeredAt, 'ms from the change answered to the first refused request').toBeLessThan(
      REFUSED_WITHIN_MS,
    );
    expect(refusal.refusedAt - readAt, 'ms from the read to the first refusal').toBeLessThan(READ_CACHE_TTL_MS);
    return;
  }
}

const newAddress = (what: string) => `${what}-${randomBytes(4).toString('hex')}@example.test`;

describe('two server processes on one PostgreSQL and one Redis', () => {
  it('started at once on an empty database, migrate it and seed the demo data once', async () => {
    const migrations: unknown = await database.db.execute(
      sql`select hash, count(*)::int as times from drizzle.__drizzle_migrations group by hash`,
    );
    const { rows } = migrations as { rows: { times: number }[] };
    expect(rows.length).toBe(readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql')).length);
    expect(rows.every((row) => row.times === 1)).toBe(true);
    const supers = await database.db.select({ id: user.id }).from(user).where(eq(user.email, 'super@demo.test'));
    expect(supers).toHaveLength(1);
  });

  it('refuse a session signed out on the other within 100 ms: its tokens and its cookie', async () => {
    let stolen = createBrowser();
    await expectRefusedInTime(async () => {
      const person = await insertUser(database.db, { email: newAddress('sign-out') });
      const browser = createBrowser();
      await browser.signIn(first, person);
      stolen = browser.copy();

      // The second process has the session, the claims and the cookie's session in its cache now.
      const readAt = performance.now();
      expect((await stolen.get(second, '/api/users/notifications/pending')).status).toBe(200);
      expect((await stolen.post(second, '/api/users/auth/token')).status).toBe(200);

      expect((await browser.post(first, '/api/users/auth/sign-out')).status).toBe(200);
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(
        async () => (await stolen.get(second, '/api/users/notifications/pending')).body.code === 'SESSION_ENDED',
      );
      return { readAt, answeredAt, refusal };
    });
    expect((await stolen.post(second, '/api/users/auth/token')).status).toBe(401);
  });

  it('refuse a session ended from the session list, and one an admin signed out, on the other within 100 ms', async () => {
    let laptop = createBrowser();
    await expectRefusedInTime(async () => {
      const person = await insertUser(database.db, { email: newAddress('session-list') });
      laptop = createBrowser();
      await laptop.signIn(first, person);
      const phone = createBrowser();
      await phone.signIn(first, person);
      const listed = await phone.get(first, '/api/users/account/sessions');
      const other = (listed.body.sessions as { id: string; isCurrent: boolean }[]).find((row) => !row.isCurrent);

      const readAt = performance.now();
      expect((await laptop.get(second, '/api/users/notifications/pending')).status).toBe(200);
      expect((await laptop.post(second, '/api/users/auth/token')).status).toBe(200);

      expect((await phone.delete(first, `/api/users/account/sessions/${other?.id}`, undefined)).status).toBe(200);
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(
        async () => (await laptop.get(second, '/api/users/notifications/pending')).body.code === 'SESSION_ENDED',
      );
      return { readAt, answeredAt, refusal };
    });
    expect((await laptop.post(second, '/api/users/auth/token')).status).toBe(401);

    let memberBrowser = createBrowser();
    await expectRefusedInTime(async () => {
      const orgId = await insertGroup(database.db);
      const admin = await insertMember(database.db, orgId, { role: 'ADMIN', email: newAddress('admin') });
      const member = await insertMember(database.db, orgId, { role: 'STUDENT', email: newAddress('member') });
      const adminBrowser = createBrowser();
      await adminBrowser.signIn(first, admin);
      memberBrowser = createBrowser();
      await memberBrowser.signIn(first, member);

      const readAt = performance.now();
      expect((await memberBrowser.get(second, '/api/users/notifications/pending')).status).toBe(200);
      expect((await memberBrowser.post(second, '/api/users/auth/token')).status).toBe(200);

      expect((await adminBrowser.post(first, `/api/users/extension/groups/${orgId}/members/${member.id}/sign-out`)).status).toBe(
        200,
      );
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(
        async () => (await memberBrowser.get(second, '/api/users/notifications/pending')).body.code === 'SESSION_ENDED',
      );
      return { readAt, answeredAt, refusal };
    });
    expect((await memberBrowser.post(second, '/api/users/auth/token')).status).toBe(401);
  });

  it('refuse the sessions of a reset password on the other within 100 ms', async () => {
    let browser = createBrowser();
    await expectRefusedInTime(async () => {
      const person = await insertUser(database.db, { email: newAddress('reset') });
      browser = createBrowser();
      await browser.signIn(first, person);

      const anonymous = createBrowser();
      expect((await anonymous.post(first, '/api/users/auth/request-password-reset', { email: person.email })).status).toBe(200);
      const token = await vi.waitFor(() => resetTokenMailedTo(person.email), { timeout: 10_000, interval: 20 });

      const readAt = performance.now();
      expect((await browser.get(second, '/api/users/notifications/pending')).status).toBe(200);
      expect((await browser.post(second, '/api/users/auth/token')).status).toBe(200);

      const reset = await anonymous.post(first, '/api/users/auth/reset-password', { token, newPassword: 'Brand-New-Pass-9' });
      expect(reset.status).toBe(200);
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(
        async () => (await browser.get(second, '/api/users/notifications/pending')).body.code === 'SESSION_ENDED',
      );
      return { readAt, answeredAt, refusal };
    });
    expect((await browser.post(second, '/api/users/auth/token')).status).toBe(401);
  });

  it('refuse a member removed from the organisation on the other within 100 ms', async () => {
    await expectRefusedInTime(async () => {
      const orgId = await insertGroup(database.db);
      const admin = await insertMember(database.db, orgId, { role: 'ADMIN', email: newAddress('admin') });
      const member = await insertMember(database.db, orgId, { role: 'STUDENT', email: newAddress('member') });
      const adminBrowser = createBrowser();
      await adminBrowser.signIn(first, admin);
      const memberBrowser = createBrowser();
      await memberBrowser.signIn(first, member);

      const groupsUrl = `/api/users/extension/users/${member.id}/groups`;
      const readAt = performance.now();
      const before = await memberBrowser.get(second, groupsUrl);
      expect(before.status).toBe(200);
      expect(JSON.stringify(before.body)).toContain(orgId);

      expect((await adminBrowser.delete(first, `/api/users/extension/groups/${orgId}/members`, [member.id])).status).toBe(200);
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(
        async () => (await memberBrowser.get(second, groupsUrl)).body.code === 'SESSION_ENDED',
      );
      return { readAt, answeredAt, refusal };
    });
  });

  it('refuse what a changed role no longer allows on the other within 100 ms', async () => {
    await expectRefusedInTime(async () => {
      const orgId = await insertGroup(database.db);
      const admin = await insertMember(database.db, orgId, { role: 'ADMIN', email: newAddress('admin') });
      const instructor = await insertMember(database.db, orgId, { role: 'USER', email: newAddress('instructor') });
      const adminBrowser = createBrowser();
      await adminBrowser.signIn(first, admin);
      const instructorBrowser = createBrowser();
      await instructorBrowser.signIn(first, instructor);

      // Instructors may list the organisation's users; students may not.
      const membersUrl = `/api/users/extension/groups/${orgId}/members`;
      const readAt = performance.now();
      expect((await instructorBrowser.get(second, membersUrl)).status).toBe(200);

      const change = await adminBrowser.patch(first, `/api/users/users/${instructor.id}?orgId=${orgId}`, { role: 'STUDENT' });
      expect(change.status).toBe(200);
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(async () => {
        const answer = await instructorBrowser.get(second, membersUrl);
        return answer.status === 403 && answer.body.code === 'FORBIDDEN';
      });
      return { readAt, answeredAt, refusal };
    });
  });

  it("gate the token renewal of a member an organisation's new second-factor requirement covers on the other within 100 ms", async () => {
    await expectRefusedInTime(async () => {
      const orgId = await insertGroup(database.db);
      const admin = await insertMember(database.db, orgId, { role: 'ADMIN', email: newAddress('admin') });
      const instructor = await insertMember(database.db, orgId, { role: 'USER', email: newAddress('instructor') });
      const adminBrowser = createBrowser();
      await adminBrowser.signIn(first, admin);
      const instructorBrowser = createBrowser();
      await instructorBrowser.signIn(first, instructor);

      // The renewal reads (and caches) the instructor's factors and requirement.
      const readAt = performance.now();
      expect((await instructorBrowser.post(second, '/api/users/auth/token')).status).toBe(200);

      const change = await adminBrowser.put(first, `/api/users/extension/groups/${orgId}/two-factor-requirement`, {
        roles: ['USER'],
      });
      expect(change.status).toBe(200);
      const answeredAt = performance.now();
      const refusal = await waitForRefusal(async () => {
        const answer = await instructorBrowser.post(second, '/api/users/auth/token');
        return answer.status === 403 && answer.body.code === 'TWO_FACTOR_ENROLMENT_REQUIRED';
      });
      return { readAt, answeredAt, refusal };
    });
  });

  it('count failed sign-ins to one account on both', async () => {
    const person = await insertUser(database.db, { email: newAddress('guessed') });
    const guesser = createBrowser();
    const wrong = { email: person.email, password: 'Not-The-Password-1' };
    // Five failures, alternating between the processes, lock the account on both.
    for (const server of [first, second, first, second, first]) {
      expect((await guesser.post(server, '/api/users/auth/sign-in', wrong)).body.code).toBe('INVALID_CREDENTIALS');
    }
    for (const server of [second, first]) {
      const locked = await guesser.post(server, '/api/users/auth/sign-in', person);
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('RATE_LIMITED');
    }
  });
});

/** The token of the newest reset link mailed to `email` (the first process's development outbox). */
function resetTokenMailedTo(email: string): string {
  const outbox = path.join(dataDirs[0] ?? '', 'outbox');
  const mails = readdirSync(outbox)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(outbox, file), 'utf8')) as { to: string; text: string });
  const link = mails
    .filter((mail) => mail.to === email)
    .map((mail) => /https?:\/\/\S*\/auth\/reset-password\?token=[^\s"'<>]+/.exec(mail.text)?.[0])
    .findLast(Boolean);
  if (!link) throw new Error(`no reset link mailed to ${email} yet`);
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error('the reset link has no token');
  return token;
}
