import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { session } from '../../db/schema/auth.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { type Client, createClient } from '../../../test/client.js';
import { insertUser } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { createSoftPasskey, type SoftPasskey } from '../../../test/webauthn.js';

/**
 * A passkey as the second step of a sign-in (decision 0066), with a software authenticator: only
 * after the password's step, only the passkey of that person, and the step is used up.
 */

const SIGN_IN = '/api/users/auth/sign-in';
const OPTIONS = '/api/users/auth/sign-in/passkey/options';
const PASSKEY = '/api/users/auth/sign-in/passkey';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let nextIp = 0;
const newBrowser = () => {
  nextIp += 1;
  return createClient(t.app, { ip: `10.68.${Math.floor(nextIp / 250)}.${nextIp % 250}` });
};

/** A person with a passkey registered through the account's routes. */
async function personWithPasskey() {
  const person = await insertUser(t.db, { role: 'ADMIN' });
  const { client } = await signInAs(t, person.email, person.password);
  const authenticator = createSoftPasskey();
  const options = (await client.post('/api/users/account/passkeys/options')).json();
  const registered = await client.post('/api/users/account/passkeys', {
    name: 'Phone',
    response: authenticator.register(options),
  });
  expect(registered.statusCode, registered.body).toBe(200);
  return { person, authenticator };
}

async function passkeyStep(browser: Client, authenticator: SoftPasskey) {
  const options = await browser.post(OPTIONS);
  expect(options.statusCode, options.body).toBe(200);
  return browser.post(PASSKEY, { response: authenticator.authenticate(options.json()) });
}

describe('passkey after the password', () => {
  it('signs in with the passkey after the password, with amr pwd and hwk, and uses the step up', async () => {
    const { person, authenticator } = await personWithPasskey();
    const browser = newBrowser();
    const asked = await browser.post(SIGN_IN, { email: person.email, password: person.password });
    expect(asked.json()).toEqual({ secondFactor: { methods: ['passkey'] } });
    const options = (await browser.post(OPTIONS)).json();
    expect(options.allowCredentials).toEqual([{ id: authenticator.credentialId, type: 'public-key', transports: ['internal'] }]);
    expect(options.rpId).toBe('localhost');
    const signedIn = await browser.post(PASSKEY, { response: authenticator.authenticate(options) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user.id).toBe(person.id);
    const token = await browser.post('/api/users/auth/token');
    expect(token.json().idTokenPayload.amr).toEqual(['pwd', 'hwk']);
    // The password's step is used up: a second passkey answer on it opens nothing.
    expect((await browser.post(OPTIONS)).json().code).toBe('SECOND_FACTOR_EXPIRED');
  });

  it('is refused without the password step, and leaves no session', async () => {
    const { person, authenticator } = await personWithPasskey();
    const browser = newBrowser();
    const options = await browser.post(OPTIONS);
    expect(options.statusCode).toBe(401);
    expect(options.json().code).toBe('SECOND_FACTOR_EXPIRED');
    // Even with options fetched by a signed-in client's challenge cookie: the two-factor cookie is missing.
    const response = await browser.post(PASSKEY, { response: authenticator.authenticate({ challenge: 'AAAA' }) });
    expect(response.statusCode).toBe(401);
    expect(await t.db.select().from(session).where(eq(session.userId, person.id))).toHaveLength(1);
  });

  it("refuses another person's passkey on this person's password step", async () => {
    const victim = await personWithPasskey();
    const attacker = await personWithPasskey();
    const browser = newBrowser();
    await browser.post(SIGN_IN, { email: victim.person.email, password: victim.person.password });
    const response = await passkeyStep(browser, attacker.authenticator);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('PASSKEY_INVALID');
    expect(await t.db.select().from(session).where(eq(session.userId, attacker.person.id))).toHaveLength(1);
    expect(await t.db.select().from(session).where(eq(session.userId, victim.person.id))).toHaveLength(1);
  });

  it('refuses an assertion for another challenge (400 PASSKEY_INVALID) and malformed bodies', async () => {
    const { person, authenticator } = await personWithPasskey();
    const browser = newBrowser();
    await browser.post(SIGN_IN, { email: person.email, password: person.password });
    await browser.post(OPTIONS);
    const wrong = await browser.post(PASSKEY, { response: authenticator.authenticate({ challenge: 'bm90LXRoaXMtb25l' }) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('PASSKEY_INVALID');
    for (const body of [{}, { response: 'text' }, { response: [] }]) {
      expect((await browser.post(PASSKEY, body)).statusCode).toBe(400);
    }
  });
});
