import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '../db/schema/auth.js';
import { buildTestApp, type TestApp } from '../../test/build-app.js';
import { createClient } from '../../test/client.js';
import { insertUser, TEST_PASSWORD } from '../../test/fixtures.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../test/redis.js';
import { endUserSessions } from './sessions.js';
import { addSessionReference } from './sign-in.js';

/**
 * The sign-in path opens better-auth sessions itself (decision 0016). These tests hold it to what
 * better-auth's own sign-in did: the same cookie, a session better-auth reads, renews and revokes,
 * in the database and in secondary storage (process memory on the embedded database, Redis with
 * REDIS_URL), in two database statements.
 */

await requireRedis();

type QueryClient = { query: (...args: unknown[]) => unknown };

/** The SQL text of every statement the app sends to its database while `work` runs. */
async function statementsDuring(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const client = (t.db as unknown as { $client: QueryClient }).$client;
  const spy = vi.spyOn(client, 'query');
  try {
    await work();
    return spy.mock.calls.map(([query]) => (typeof query === 'string' ? query : String((query as { text: string }).text)));
  } finally {
    spy.mockRestore();
  }
}

const signIn = (t: TestApp, email: string, password = TEST_PASSWORD, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/users/auth/sign-in', payload: { email, password }, headers });

/** The session's Set-Cookie line; the other one is the device cookie of the sign-in limits (decision 0039). */
const cookieOf = (response: { headers: Record<string, unknown> }) => {
  const lines = [response.headers['set-cookie']].flat().map(String);
  expect(lines).toHaveLength(2);
  const sessionLines = lines.filter((line) => !line.includes('.device.'));
  expect(sessionLines).toHaveLength(1);
  return sessionLines[0]!;
};
/** The `name=value` part of a Set-Cookie line, as a browser sends it back. */
const pairOf = (setCookie: string) => setCookie.split(';', 1)[0]!;

/** What better-auth finds behind a session cookie (null when the session is gone). */
const sessionBehind = (t: TestApp, setCookie: string) =>
  t.app.auth.api.getSession({ headers: new Headers({ cookie: pairOf(setCookie) }) });

const engines: { name: string; env: Record<string, string> }[] = [
  { name: 'without Redis', env: {} },
  { name: 'with sessions in Redis', env: { REDIS_URL: testRedisUrlOnDatabase(1 + randomInt(15)) } },
];

describe.each(engines)('sign-in $name', ({ env }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env });
  });

  it('reads the account with its password hash in one statement and writes the session in one more', async () => {
    const person = await insertUser(t.db);
    const statements = await statementsDuring(t, async () => expect((await signIn(t, person.email)).statusCode).toBe(200));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^select .* from "user" left join "account"/);
    expect(statements[1]).toMatch(/^insert into "session"/);

    const wrong = await statementsDuring(t, async () =>
      expect((await signIn(t, person.email, 'Wrong-Pass-1')).statusCode).toBe(401),
    );
    expect(wrong).toHaveLength(1);
  });

  it('opens a session better-auth reads, with the client address and user agent', async () => {
    const person = await insertUser(t.db);
    const response = await signIn(t, person.email, TEST_PASSWORD, { 'user-agent': 'Sim Browser 1.0' });
    expect(response.statusCode).toBe(200);
    const found = await sessionBehind(t, cookieOf(response));
    expect(found?.user).toMatchObject({ id: person.id, email: person.email, emailVerified: true });
    expect(found?.session.userId).toBe(person.id);
    const [row] = await t.db
      .select()
      .from(session)
      .where(eq(session.id, found?.session.id ?? ''));
    expect(row).toMatchObject({ userId: person.id, ipAddress: '127.0.0.1', userAgent: 'Sim Browser 1.0' });
    // Seven days, like every better-auth session here.
    const days = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
  });

  it('sets the cookie better-auth sets, with the same name and attributes', async () => {
    const ours = cookieOf(await signIn(t, (await insertUser(t.db)).email));
    const theirs = (
      await t.app.auth.api.signInEmail({
        body: { email: (await insertUser(t.db)).email, password: TEST_PASSWORD, rememberMe: true },
        returnHeaders: true,
      })
    ).headers.getSetCookie();
    expect(theirs).toHaveLength(1);
    const attributes = (line: string) => line.slice(line.indexOf(';'));
    const name = (line: string) => line.slice(0, line.indexOf('='));
    expect(name(ours)).toBe(name(theirs[0]!));
    expect(attributes(ours)).toBe(attributes(theirs[0]!));
    expect(ours).toMatch(/; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('renews ID tokens from the session and ends with sign-out', async () => {
    const person = await insertUser(t.db);
    const client = createClient(t.app);
    expect((await client.post('/api/users/auth/sign-in', { email: person.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    const token = await client.post('/api/users/auth/token');
    expect(token.statusCode).toBe(200);
    expect(token.json().idTokenPayload.sub).toBe(person.id);
    expect((await client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(401);
  });

  it('lists every session it opens for revocation: ending the user’s sessions ends them all', async () => {
    const person = await insertUser(t.db);
    const cookies = [cookieOf(await signIn(t, person.email)), cookieOf(await signIn(t, person.email))];
    const other = await insertUser(t.db);
    const otherCookie = cookieOf(await signIn(t, other.email));
    for (const cookie of cookies) expect((await sessionBehind(t, cookie))?.user.id).toBe(person.id);

    await endUserSessions(t.app, [person.id]);
    for (const cookie of cookies) expect(await sessionBehind(t, cookie)).toBeNull();
    expect(await t.db.select().from(session).where(eq(session.userId, person.id))).toEqual([]);
    // Another user's session is untouched.
    expect((await sessionBehind(t, otherCookie))?.user.id).toBe(other.id);
  });

  it('refuses a cookie whose signature is not the server’s', async () => {
    const cookie = cookieOf(await signIn(t, (await insertUser(t.db)).email));
    const [name, value] = pairOf(cookie).split('=') as [string, string];
    const [token] = decodeURIComponent(value).split('.');
    const forged = `${name}=${encodeURIComponent(`${token}.${Buffer.alloc(32).toString('base64')}`)}`;
    expect(await sessionBehind(t, forged)).toBeNull();
  });
});

describe('the stored list of a user’s sessions', () => {
  const now = 1_000_000;
  const day = 86_400_000;
  const entry = (token: string, expiresAt: number) => ({ token, expiresAt });
  /** What better-auth's own sign-in writes: live entries plus the new one, sorted by expiry. */
  const betterAuthList = (listed: { token: string; expiresAt: number }[], added: { token: string; expiresAt: number }) =>
    [...listed.filter((reference) => reference.expiresAt > now), added].sort((a, b) => a.expiresAt - b.expiresAt);

  it('appends a session that expires last to a live list, leaving the stored text as it was', () => {
    const listed = [entry('a', now + day), entry('b', now + 2 * day)];
    const text = JSON.stringify(listed);
    const added = entry('c', now + 7 * day);
    const { list, lastExpiresAt } = addSessionReference(text, added, now);
    expect(list.startsWith(text.slice(0, -1))).toBe(true);
    expect(JSON.parse(list)).toEqual(betterAuthList(listed, added));
    expect(lastExpiresAt).toBe(added.expiresAt);
  });

  it('drops expired sessions, as better-auth does, once the first one has expired', () => {
    const listed = [entry('old', now - 1), entry('gone', now), entry('live', now + day)];
    const added = entry('new', now + 7 * day);
    const { list, lastExpiresAt } = addSessionReference(JSON.stringify(listed), added, now);
    expect(JSON.parse(list)).toEqual([entry('live', now + day), added]);
    expect(lastExpiresAt).toBe(added.expiresAt);
  });

  it('keeps the list sorted, and alive as long as its last session, when a stored one expires later', () => {
    // Another process whose clock runs ahead wrote a session that outlives the new one.
    const listed = [entry('a', now + day), entry('ahead', now + 8 * day)];
    const added = entry('new', now + 7 * day);
    const { list, lastExpiresAt } = addSessionReference(JSON.stringify(listed), added, now);
    expect(JSON.parse(list)).toEqual(betterAuthList(listed, added));
    expect(lastExpiresAt).toBe(now + 8 * day);
  });

  it('starts a list when there is none, and replaces one it cannot read', () => {
    const added = entry('new', now + day);
    for (const listed of [null, undefined, '[]', 'not json', '{"token":"x"}', '[{"token":"x","expiresAt":']) {
      const { list, lastExpiresAt } = addSessionReference(listed, added, now);
      expect(JSON.parse(list)).toEqual([added]);
      expect(lastExpiresAt).toBe(added.expiresAt);
    }
  });
});
