import { randomInt } from 'node:crypto';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { session, verification } from '../../db/schema/auth.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertUser } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { enrolTotp, totpCode, wrongTotpCode } from '../../../test/two-factor.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../../test/redis.js';

/**
 * The sign-in's second step (decision 0066): after the right password, an account with an
 * authenticator app gets better-auth's two-factor cookie and no session, then signs in with a code
 * of the app or a recovery code.
 */

const SIGN_IN = '/api/users/auth/sign-in';
const SECOND_STEP = '/api/users/auth/sign-in/two-factor';

await requireRedis();

const engines: { name: string; env: Record<string, string> }[] = [
  { name: 'without Redis', env: {} },
  { name: 'with sessions in Redis', env: { REDIS_URL: testRedisUrlOnDatabase(1 + randomInt(15)) } },
];

let t: TestApp;

let nextIp = 0;
/** A person with an app set up, and a fresh client (a browser of its own, clear of the limits). */
async function personWithApp() {
  const person = await insertUser(t.db, { role: 'ADMIN' });
  const enrolling = await signInAs(t, person.email, person.password);
  const app = await enrolTotp(enrolling.client, person.password);
  nextIp += 1;
  const browser = createClient(t.app, { ip: `10.66.${Math.floor(nextIp / 250)}.${nextIp % 250}` });
  return { person, ...app, browser };
}

describe.each(engines)('sign-in with a second factor $name', ({ env }) => {
  beforeAll(async () => {
    t = await buildTestApp({ env });
  });

  it('asks for the code after the password, refuses a wrong one, and signs in with the right one', async () => {
    const { person, totpUri, browser } = await personWithApp();
    const asked = await browser.post(SIGN_IN, { email: person.email, password: person.password });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ secondFactor: { methods: ['totp'] } });
    // The two-factor cookie, no session.
    expect([...browser.cookies.keys()].some((name) => name.endsWith('.two_factor'))).toBe(true);
    expect([...browser.cookies.keys()].some((name) => name.endsWith('.session_token'))).toBe(false);
    expect(await t.db.select().from(session).where(eq(session.userId, person.id))).toHaveLength(1);
    expect((await browser.post('/api/users/auth/token')).statusCode).toBe(401);

    const wrong = await browser.post(SECOND_STEP, { kind: 'totp', code: wrongTotpCode(totpUri) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');

    const right = await browser.post(SECOND_STEP, { kind: 'totp', code: totpCode(totpUri) });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toEqual({ user: { id: person.id, email: person.email, emailVerified: true }, licenseToken: null });
    expect([...browser.cookies.keys()].some((name) => name.endsWith('.two_factor'))).toBe(false);
    const token = await browser.post('/api/users/auth/token');
    expect(token.statusCode).toBe(200);
    expect(token.json().idTokenPayload.amr).toEqual(['pwd', 'otp']);
    expect(decodeJwt(token.json().idToken).amr).toEqual(['pwd', 'otp']);
  });

  it('takes a recovery code once, and refuses it replayed', async () => {
    const { person, recoveryCodes, browser } = await personWithApp();
    expect(recoveryCodes).toHaveLength(10);
    await browser.post(SIGN_IN, { email: person.email, password: person.password });
    const used = await browser.post(SECOND_STEP, { kind: 'recovery', code: recoveryCodes[0] });
    expect(used.statusCode, used.body).toBe(200);
    expect((await browser.post('/api/users/auth/token')).json().idTokenPayload.amr).toEqual(['pwd', 'otp']);

    await browser.post('/api/users/auth/sign-out');
    await browser.post(SIGN_IN, { email: person.email, password: person.password });
    const replayed = await browser.post(SECOND_STEP, { kind: 'recovery', code: recoveryCodes[0] });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().code).toBe('SECOND_FACTOR_INVALID');
    expect((await browser.post(SECOND_STEP, { kind: 'recovery', code: recoveryCodes[1] })).statusCode).toBe(200);
  });

  it('counts failed codes toward the sign-in limits: past them, 429 with Retry-After', async () => {
    const { person, totpUri, browser } = await personWithApp();
    await browser.post(SIGN_IN, { email: person.email, password: person.password });
    const answers: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      answers.push((await browser.post(SECOND_STEP, { kind: 'totp', code: wrongTotpCode(totpUri) })).statusCode);
    }
    // The password's step and four wrong codes use up the client's five attempts.
    expect(answers).toEqual([401, 401, 401, 401, 429]);
    const refused = await browser.post(SECOND_STEP, { kind: 'totp', code: totpCode(totpUri) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // So is the password from this client.
    expect((await browser.post(SIGN_IN, { email: person.email, password: person.password })).statusCode).toBe(429);
  });

  it('answers SECOND_FACTOR_EXPIRED without the two-factor cookie, or once its step expired', async () => {
    const { person, totpUri, browser } = await personWithApp();
    const without = await browser.post(SECOND_STEP, { kind: 'totp', code: totpCode(totpUri) });
    expect(without.statusCode).toBe(401);
    expect(without.json().code).toBe('SECOND_FACTOR_EXPIRED');

    await browser.post(SIGN_IN, { email: person.email, password: person.password });
    // The step's 10 minutes are over: its verification row says so.
    await t.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.value, person.id));
    const late = await browser.post(SECOND_STEP, { kind: 'totp', code: totpCode(totpUri) });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('SECOND_FACTOR_EXPIRED');
    expect(await t.db.select().from(session).where(eq(session.userId, person.id))).toHaveLength(1);
  });

  it('refuses malformed codes with 400', async () => {
    const browser = createClient(t.app, { ip: '10.67.0.1' });
    for (const body of [
      { kind: 'totp', code: '12345' },
      { kind: 'totp', code: 'abcdef' },
      { kind: 'recovery', code: 'no spaces allowed!' },
      { kind: 'sms', code: '123456' },
      {},
    ]) {
      const response = await browser.post(SECOND_STEP, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('signs in a person without a factor as before, with amr pwd', async () => {
    const person = await insertUser(t.db);
    const signedIn = await signInAs(t, person.email, person.password);
    expect(signedIn.payload.amr).toEqual(['pwd']);
  });
});
