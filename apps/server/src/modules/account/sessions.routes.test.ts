import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { session } from '../../db/schema/auth.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertGroup, insertMember, insertUser, signInNewMember, viewingAs } from '../../../test/fixtures.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../../test/redis.js';

/**
 * A person's own sessions (decision 0064): listed without their tokens, and ended one by one or all
 * but the current one, at once, on the database alone and with better-auth's copies in Redis.
 */

await requireRedis();

const CHROME_ON_MACOS =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const SESSIONS = '/api/users/account/sessions';
const SIGN_OUT_OTHERS = `${SESSIONS}/sign-out-others`;

const engines: { name: string; env: Record<string, string> }[] = [
  { name: 'without Redis', env: {} },
  { name: 'with sessions in Redis', env: { REDIS_URL: testRedisUrlOnDatabase(1 + randomInt(15)) } },
];

let nextIp = 1;

describe.each(engines)('account sessions $name', ({ env }) => {
  let t: TestApp;
  let orgId: string;
  beforeAll(async () => {
    t = await buildTestApp({ env });
    orgId = await insertGroup(t.db, { seats: 25 });
  });

  /** A browser of `account` signed in with `userAgent`, holding its cookie and an ID token. */
  async function signInBrowser(account: { email: string; password: string }, userAgent = CHROME_ON_MACOS) {
    nextIp += 1;
    const ip = `10.64.${Math.floor(nextIp / 250)}.${nextIp % 250}`;
    const client = createClient(t.app, { ip });
    const headers = { 'user-agent': userAgent };
    expect((await client.post('/api/users/auth/sign-in', account, headers)).statusCode).toBe(200);
    const token = await client.post('/api/users/auth/token', undefined, headers);
    expect(token.statusCode).toBe(200);
    client.setBearer(token.json().idToken);
    return { client, ip, sid: token.json().idTokenPayload.sid as string };
  }

  /** One person signed in on a laptop and on a phone. */
  async function personOnTwoDevices() {
    const person = await insertMember(t.db, orgId, { role: 'STUDENT' });
    const laptop = await signInBrowser(person, CHROME_ON_MACOS);
    const phone = await signInBrowser(person, SAFARI_ON_IOS);
    return { person, laptop, phone };
  }

  /** Whether a browser's cookie still renews a token and its ID token is still accepted. */
  async function isSignedIn(browser: { client: ReturnType<typeof createClient> }) {
    const bearer = await browser.client.get(SESSIONS);
    const renewal = await browser.client.post('/api/users/auth/token');
    expect(bearer.statusCode === 200, 'the bearer and the cookie agree').toBe(renewal.statusCode === 200);
    if (bearer.statusCode !== 200) {
      expect(bearer.json()).toMatchObject({ statusCode: 401, code: 'SESSION_ENDED' });
      expect(renewal.statusCode).toBe(401);
    }
    return bearer.statusCode === 200;
  }

  it("lists the caller's live sessions, this one first, with device, address and times, never a token", async () => {
    const { person, laptop, phone } = await personOnTwoDevices();
    const someoneElse = await insertMember(t.db, orgId, { role: 'STUDENT' });
    await signInBrowser(someoneElse);
    const response = await phone.client.get(SESSIONS);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { sessions } = response.json();
    expect(sessions).toEqual([
      {
        id: phone.sid,
        device: 'Safari on iOS',
        ipAddress: phone.ip,
        signedInAt: expect.any(String),
        lastActiveAt: expect.any(String),
        isCurrent: true,
      },
      {
        id: laptop.sid,
        device: 'Chrome on macOS',
        ipAddress: laptop.ip,
        signedInAt: expect.any(String),
        lastActiveAt: expect.any(String),
        isCurrent: false,
      },
    ]);
    const rows = await t.db.select().from(session).where(eq(session.userId, person.id));
    expect(rows).toHaveLength(2);
    const [laptopRow] = rows.filter((row) => row.id === laptop.sid);
    expect(sessions[1].signedInAt).toBe(laptopRow?.createdAt.toISOString());
    expect(sessions[1].lastActiveAt).toBe(laptopRow?.updatedAt.toISOString());
    for (const row of rows) expect(response.body).not.toContain(row.token);
  });

  it('leaves out ended and expired sessions, and the views of the product a super admin opened from one', async () => {
    const provider = await insertGroup(t.db);
    const superAdmin = await insertMember(t.db, provider, { role: 'SUPER_ADMIN' });
    const browser = await signInBrowser(superAdmin);
    const expired = await signInBrowser(superAdmin);
    await t.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.id, expired.sid));
    const student = await insertMember(t.db, orgId, { role: 'STUDENT' });
    await viewingAs(t, { userId: student.id, viewer: { userId: superAdmin.id, payload: { sid: browser.sid } } });
    t.app.cache.clear();
    const { sessions } = (await browser.client.get(SESSIONS)).json();
    expect(sessions.map((row: { id: string }) => row.id)).toEqual([browser.sid]);
  });

  it('names no device when the user agent names none', async () => {
    const person = await insertMember(t.db, orgId, { role: 'STUDENT' });
    const browser = await signInBrowser(person, 'curl/8.5.0');
    expect((await browser.client.get(SESSIONS)).json().sessions[0].device).toBeNull();
  });

  it('ends another session of the caller at once: its cookie renews nothing and its tokens are refused', async () => {
    const { laptop, phone } = await personOnTwoDevices();
    // Both read and cached now: only the end itself can explain the refusal below.
    expect(await isSignedIn(laptop)).toBe(true);
    const ended = await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/${laptop.sid}` });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ok: true });
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await isSignedIn(phone)).toBe(true);
    expect((await phone.client.get(SESSIONS)).json().sessions.map((row: { id: string }) => row.id)).toEqual([phone.sid]);
    // Ended already: nothing of the caller's by that id any more.
    expect((await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/${laptop.sid}` })).statusCode).toBe(404);
  });

  it("answers 404 for another person's session and leaves it alive", async () => {
    const { phone } = await personOnTwoDevices();
    const other = await personOnTwoDevices();
    const response = await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/${other.laptop.sid}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect(await isSignedIn(other.laptop)).toBe(true);
    expect((await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/0123456789abcdef` })).statusCode).toBe(404);
  });

  it('refuses a malformed id with a JSON 400, and the current session with 422 (signing out ends it)', async () => {
    const { phone } = await personOnTwoDevices();
    const malformed = await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/not%20an%20id!` });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    const current = await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/${phone.sid}` });
    expect(current.statusCode).toBe(422);
    expect(current.json()).toMatchObject({ statusCode: 422, code: 'SESSION_IS_CURRENT' });
    expect(await isSignedIn(phone)).toBe(true);
  });

  it('signs out everywhere else: every other session ends at once, this one stays', async () => {
    const { person, laptop, phone } = await personOnTwoDevices();
    const tablet = await signInBrowser(person);
    const someoneElse = await personOnTwoDevices();
    for (const browser of [laptop, tablet]) expect(await isSignedIn(browser)).toBe(true);
    const response = await phone.client.post(SIGN_OUT_OTHERS);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ended: 2 });
    for (const browser of [laptop, tablet]) expect(await isSignedIn(browser)).toBe(false);
    expect(await isSignedIn(phone)).toBe(true);
    expect(await isSignedIn(someoneElse.laptop)).toBe(true);
    expect((await phone.client.post(SIGN_OUT_OTHERS)).json()).toEqual({ ended: 0 });
  });

  it('refuses callers without a token and sessions that ended (401)', async () => {
    const { laptop, phone } = await personOnTwoDevices();
    await phone.client.request({ method: 'DELETE', url: `${SESSIONS}/${laptop.sid}` });
    const calls = [
      { method: 'GET' as const, url: SESSIONS },
      { method: 'DELETE' as const, url: `${SESSIONS}/${phone.sid}` },
      { method: 'POST' as const, url: SIGN_OUT_OTHERS },
    ];
    for (const call of calls) {
      expect((await t.app.inject(call)).json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
      expect((await laptop.client.request(call)).json()).toMatchObject({ statusCode: 401, code: 'SESSION_ENDED' });
    }
    expect(await isSignedIn(phone)).toBe(true);
  });

  it("refuses a view of the product as someone: it neither lists nor ends that person's sessions", async () => {
    const { person, laptop } = await personOnTwoDevices();
    const provider = await insertGroup(t.db);
    const superAdmin = await signInNewMember(t, provider, { role: 'SUPER_ADMIN' });
    const view = await viewingAs(t, { userId: person.id, viewer: superAdmin });
    const listed = await view.get(SESSIONS);
    expect(listed.json()).toMatchObject({
      statusCode: 403,
      code: 'VIEW_AS_READ_ONLY',
      message: 'This is not shown while viewing PatientSim as another user.',
    });
    const ended = await view.request({ method: 'DELETE', url: `${SESSIONS}/${laptop.sid}` });
    expect(ended.json()).toMatchObject({ statusCode: 403, code: 'VIEW_AS_READ_ONLY' });
    expect((await view.post(SIGN_OUT_OTHERS)).json()).toMatchObject({ statusCode: 403, code: 'VIEW_AS_READ_ONLY' });
    expect(await isSignedIn(laptop)).toBe(true);
    // The super admin's own list is theirs as ever.
    expect((await superAdmin.client.get(SESSIONS)).statusCode).toBe(200);
  });

  it('lists the sessions of a person whose address is not verified yet (their own account)', async () => {
    const person = await insertUser(t.db, { verified: false });
    const browser = await signInBrowser(person);
    expect((await browser.client.get(SESSIONS)).statusCode).toBe(200);
  });
});
