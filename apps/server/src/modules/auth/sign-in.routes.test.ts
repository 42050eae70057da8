import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../../db/schema/auth.js';
import { endUserSessions } from '../../identity/sessions.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertUser, TEST_PASSWORD } from '../../../test/fixtures.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../../test/redis.js';

/**
 * Sign-in opens better-auth sessions through better-auth's own sign-in (decision 0056): a session
 * better-auth reads, renews and revokes, in the database and, with REDIS_URL, in Redis as its
 * secondary storage, behind the product's route and its limits.
 */

await requireRedis();

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

  it('sets the session cookie for the browser only, for a week', async () => {
    const cookie = cookieOf(await signIn(t, (await insertUser(t.db)).email));
    expect(cookie).toMatch(/^patientsim\.session_token=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('refuses a deleted account without opening a session, like a wrong password', async () => {
    const gone = await insertUser(t.db);
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, gone.id));
    const response = await signIn(t, gone.email, TEST_PASSWORD, { 'x-forwarded-for': '10.61.0.1' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_CREDENTIALS');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await t.db.select().from(session).where(eq(session.userId, gone.id))).toEqual([]);
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
