import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent } from '../../db/schema/audit.js';
import { findUser, insertUser, viewingAs } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { enrolTotp, totpCode, wrongTotpCode } from '../../../test/two-factor.js';
import { createClient } from '../../../test/client.js';
import { createSoftPasskey } from '../../../test/webauthn.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../../test/redis.js';

/**
 * The account's second factors (decision 0066), reached with the session cookie: an authenticator
 * app with recovery codes, and passkeys registered with a software authenticator.
 */

const STATUS = '/api/users/account/two-factor';
const TOTP = '/api/users/account/two-factor/totp';
const TOTP_VERIFY = '/api/users/account/two-factor/totp/verify';
const TOTP_REMOVE = '/api/users/account/two-factor/totp/remove';
const RECOVERY = '/api/users/account/two-factor/recovery-codes';
const PASSKEY_OPTIONS = '/api/users/account/passkeys/options';
const PASSKEYS = '/api/users/account/passkeys';

await requireRedis();

const engines: { name: string; env: Record<string, string> }[] = [
  { name: 'without Redis', env: {} },
  { name: 'with sessions in Redis', env: { REDIS_URL: testRedisUrlOnDatabase(1 + randomInt(15)) } },
];

let t: TestApp;

describe.each(engines)('second factors of the account $name', ({ env }) => {
  beforeAll(async () => {
    t = await buildTestApp({ env });
  });

  async function signedIn(role: 'STUDENT' | 'USER' | 'ADMIN' = 'USER') {
    const person = await insertUser(t.db, { role });
    return { person, ...(await signInAs(t, person.email, person.password)) };
  }

  const actionsOf = async (userId: string) =>
    (await t.db.select({ action: auditEvent.action }).from(auditEvent).where(eq(auditEvent.actorId, userId))).map(
      (row) => row.action,
    );

  describe('the authenticator app', () => {
    it('is set up with its first code, shows in the status, and turns on the sign-in hook', async () => {
      const { person, client } = await signedIn();
      expect((await client.get(STATUS)).json()).toEqual({
        totp: { enabled: false, recoveryCodesLeft: 0 },
        passkeys: [],
        requiredBy: [],
      });
      const started = await client.post(TOTP, { password: person.password });
      expect(started.statusCode).toBe(200);
      const { totpUri, recoveryCodes } = started.json();
      expect(totpUri).toMatch(/^otpauth:\/\/totp\/PatientSim:.+\?secret=[A-Z2-7]+/);
      expect(new URL(totpUri).searchParams.get('digits')).toBe('6');
      expect(new URL(totpUri).searchParams.get('period')).toBe('30');
      expect(recoveryCodes).toHaveLength(10);
      // Not enabled until a code proves the app holds the secret.
      expect((await client.get(STATUS)).json().totp.enabled).toBe(false);
      expect((await findUser(t.db, person.id))?.twoFactorEnabled).toBe(false);

      const verified = await client.post(TOTP_VERIFY, { code: totpCode(totpUri) });
      expect(verified.statusCode).toBe(200);
      expect((await client.get(STATUS)).json().totp).toEqual({ enabled: true, recoveryCodesLeft: 10 });
      expect((await findUser(t.db, person.id))?.twoFactorEnabled).toBe(true);
      // This session used the app: its next token says so.
      const token = await client.post('/api/users/auth/token');
      expect(token.json().idTokenPayload.amr).toEqual(['pwd', 'otp']);
      expect(await actionsOf(person.id)).toContain('user.two-factor.totp-enable');

      const again = await client.post(TOTP, { password: person.password });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('TOTP_ALREADY_ENABLED');
    });

    it('refuses a wrong password (403), a wrong first code, and a code with nothing being set up', async () => {
      const { person, client } = await signedIn();
      const wrongPassword = await client.post(TOTP, { password: 'not-the-password' });
      expect(wrongPassword.statusCode).toBe(403);
      expect(wrongPassword.json().code).toBe('CURRENT_PASSWORD_WRONG');
      const nothing = await client.post(TOTP_VERIFY, { code: '123456' });
      expect(nothing.statusCode).toBe(422);
      expect(nothing.json().code).toBe('TOTP_NOT_ENABLED');
      const { totpUri } = (await client.post(TOTP, { password: person.password })).json();
      const wrongCode = await client.post(TOTP_VERIFY, { code: wrongTotpCode(totpUri) });
      expect(wrongCode.statusCode).toBe(401);
      expect(wrongCode.json().code).toBe('SECOND_FACTOR_INVALID');
      for (const body of [{ code: '12345' }, { code: 'abcdef' }, {}]) {
        expect((await client.post(TOTP_VERIFY, body)).statusCode).toBe(400);
      }
      expect((await client.post(TOTP, { password: '' })).statusCode).toBe(400);
    });

    it('renews the recovery codes (the old ones stop working) and removes the app with the password', async () => {
      const { person, client } = await signedIn();
      const { recoveryCodes: first } = await enrolTotp(client, person.password);
      expect((await client.post(RECOVERY, { password: 'wrong-password' })).json().code).toBe('CURRENT_PASSWORD_WRONG');
      const renewed = await client.post(RECOVERY, { password: person.password });
      expect(renewed.statusCode).toBe(200);
      const second: string[] = renewed.json().recoveryCodes;
      expect(second).toHaveLength(10);
      expect(second.some((code) => first.includes(code))).toBe(false);

      // The old codes no longer sign in; a new one does.
      const browser = createClient(t.app, { ip: '10.71.0.1' });
      await browser.post('/api/users/auth/sign-in', { email: person.email, password: person.password });
      expect((await browser.post('/api/users/auth/sign-in/two-factor', { kind: 'recovery', code: first[0] })).statusCode).toBe(
        401,
      );
      expect((await browser.post('/api/users/auth/sign-in/two-factor', { kind: 'recovery', code: second[0] })).statusCode).toBe(
        200,
      );

      expect((await client.post(TOTP_REMOVE, { password: 'wrong-password' })).statusCode).toBe(403);
      const removed = await client.post(TOTP_REMOVE, { password: person.password });
      expect(removed.statusCode).toBe(200);
      expect((await client.get(STATUS)).json().totp).toEqual({ enabled: false, recoveryCodesLeft: 0 });
      expect((await findUser(t.db, person.id))?.twoFactorEnabled).toBe(false);
      expect((await client.post(TOTP_REMOVE, { password: person.password })).json().code).toBe('TOTP_NOT_ENABLED');
      expect(await actionsOf(person.id)).toEqual(
        expect.arrayContaining(['user.two-factor.totp-enable', 'user.two-factor.recovery-codes', 'user.two-factor.totp-remove']),
      );
    });
  });

  describe('passkeys', () => {
    it('registers a passkey from a software authenticator, lists it, and removes it', async () => {
      const { person, client } = await signedIn();
      const options = await client.post(PASSKEY_OPTIONS);
      expect(options.statusCode).toBe(200);
      expect(options.json()).toMatchObject({ rp: { id: 'localhost', name: 'PatientSim' }, attestation: 'none' });
      const authenticator = createSoftPasskey();
      const registered = await client.post(PASSKEYS, { name: 'Laptop', response: authenticator.register(options.json()) });
      expect(registered.statusCode, registered.body).toBe(200);
      const passkey = registered.json();
      expect(passkey).toEqual({ id: expect.any(String), name: 'Laptop', createdAt: expect.any(String) });
      expect((await client.get(STATUS)).json().passkeys).toEqual([passkey]);
      expect((await findUser(t.db, person.id))?.twoFactorEnabled).toBe(true);
      // Registering proved the passkey in this session.
      expect((await client.post('/api/users/auth/token')).json().idTokenPayload.amr).toEqual(['pwd', 'hwk']);

      // Another person's passkey is not found.
      const other = await signedIn();
      const foreign = await other.client.request({ method: 'DELETE', url: `${PASSKEYS}/${passkey.id}` });
      expect(foreign.statusCode).toBe(404);
      const removed = await client.request({ method: 'DELETE', url: `${PASSKEYS}/${passkey.id}` });
      expect(removed.statusCode).toBe(200);
      expect((await client.get(STATUS)).json().passkeys).toEqual([]);
      expect((await findUser(t.db, person.id))?.twoFactorEnabled).toBe(false);
      expect(await actionsOf(person.id)).toEqual(expect.arrayContaining(['user.passkey.add', 'user.passkey.remove']));
    });

    it('refuses an answer that is not the options challenge', async () => {
      const { client } = await signedIn();
      await client.post(PASSKEY_OPTIONS);
      const forged = await client.post(PASSKEYS, {
        name: 'Forged',
        response: createSoftPasskey().register({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }),
      });
      expect(forged.statusCode).toBe(400);
      expect(forged.json().code).toBe('PASSKEY_INVALID');
      expect((await client.post(PASSKEYS, { name: '', response: {} })).statusCode).toBe(400);
    });
  });

  describe('who may reach the factors', () => {
    it('needs the session cookie: a bearer token alone, or an ended session, is refused', async () => {
      const { client, idToken } = await signedIn();
      const bearerOnly = createClient(t.app, { ip: '10.72.0.1' });
      bearerOnly.setBearer(idToken);
      expect((await bearerOnly.get(STATUS)).statusCode).toBe(401);
      await client.post('/api/users/auth/sign-out');
      expect((await client.get(STATUS)).statusCode).toBe(401);
    });

    it("refuses another person's bearer token beside the cookie, and a View-As-User token", async () => {
      const { client } = await signedIn();
      const other = await signedIn();
      const mixed = await client.request({ method: 'GET', url: STATUS, headers: { authorization: `Bearer ${other.idToken}` } });
      expect(mixed.statusCode).toBe(403);

      const superAdmin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
      const viewer = await signInAs(t, superAdmin.email, superAdmin.password);
      const view = await viewingAs(t, { userId: other.userId, viewer });
      // The super admin's own cookie with the view's token: the view is refused as such.
      for (const [name, value] of viewer.client.cookies) view.cookies.set(name, value);
      const viewed = await view.get(STATUS);
      expect(viewed.statusCode).toBe(403);
      expect(viewed.json().code).toBe('VIEW_AS_READ_ONLY');
    });

    it('refuses a cross-site write carrying the cookie', async () => {
      const { person, client } = await signedIn();
      const crossSite = await client.post(TOTP, { password: person.password }, { origin: 'https://evil.example' });
      expect(crossSite.statusCode).toBe(403);
      expect(crossSite.json().code).toBe('CROSS_SITE_REQUEST');
    });
  });
});
