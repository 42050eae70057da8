import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertUser } from '../../../test/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const FOREIGN = 'https://evil.example';

async function signedIn() {
  const user = await insertUser(t.db);
  const client = createClient(t.app);
  expect((await client.post('/api/users/auth/sign-in', { email: user.email, password: user.password })).statusCode).toBe(200);
  expect([...client.cookies.keys()].some((name) => name.startsWith('patientsim.'))).toBe(true);
  return { client, user };
}

describe('state-changing requests carrying the session cookie', () => {
  it('refuses a sign-out from a foreign origin, and the session still works after', async () => {
    const { client } = await signedIn();
    const refused = await client.post('/api/users/auth/sign-out', undefined, { origin: FOREIGN });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      statusCode: 403,
      code: 'CROSS_SITE_REQUEST',
      message: 'This request must come from PatientSim.',
    });
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
  });

  it('refuses every state-changing method, an opaque origin and a cross-site fetch without Origin', async () => {
    const { client, user } = await signedIn();
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const response = await client.request({ method, url: `/api/users/users/${user.id}`, headers: { origin: FOREIGN } });
      expect(response.statusCode, method).toBe(403);
    }
    expect((await client.post('/api/users/auth/sign-out', undefined, { origin: 'null' })).statusCode).toBe(403);
    for (const site of ['cross-site', 'same-site']) {
      expect((await client.post('/api/users/auth/sign-out', undefined, { 'sec-fetch-site': site })).statusCode, site).toBe(403);
    }
    // An origin that differs only in scheme or port is another origin.
    const other = new URL(TEST_PUBLIC_URL);
    other.port = '4000';
    expect((await client.post('/api/users/auth/sign-out', undefined, { origin: other.origin })).statusCode).toBe(403);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
  });

  it('lets reads through from anywhere', async () => {
    const { client, user } = await signedIn();
    client.setBearer((await client.post('/api/users/auth/token')).json().idToken);
    const response = await client.get(`/api/users/extension/users/${user.id}/groups`, { origin: FOREIGN });
    expect(response.statusCode).toBe(200);
  });

  it('allows the own origin, a same-origin fetch without Origin, and a request with neither header', async () => {
    const first = await signedIn();
    expect(
      (await first.client.post('/api/users/auth/token', undefined, { origin: new URL(TEST_PUBLIC_URL).origin })).statusCode,
    ).toBe(200);
    expect((await first.client.post('/api/users/auth/token', undefined, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      200,
    );
    expect((await first.client.post('/api/users/auth/token', undefined, { 'sec-fetch-site': 'none' })).statusCode).toBe(200);
    // The browser says same-origin for another host name of this server, or the development proxy.
    expect(
      (
        await first.client.post('/api/users/auth/token', undefined, {
          origin: 'http://127.0.0.1:3999',
          'sec-fetch-site': 'same-origin',
        })
      ).statusCode,
    ).toBe(200);
    expect((await first.client.post('/api/users/auth/sign-out', undefined, { origin: TEST_PUBLIC_URL })).statusCode).toBe(200);
    expect((await first.client.post('/api/users/auth/token')).statusCode).toBe(401);

    const second = await signedIn();
    expect((await second.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
  });
});

describe('requests without the session cookie', () => {
  it('are not affected: a cross-origin sign-in and bearer-only calls pass', async () => {
    const { client, user } = await signedIn();
    const idToken = (await client.post('/api/users/auth/token')).json().idToken as string;

    const fresh = createClient(t.app);
    const signIn = await fresh.post(
      '/api/users/auth/sign-in',
      { email: user.email, password: user.password },
      { origin: FOREIGN },
    );
    expect(signIn.statusCode).toBe(200);

    const bearerOnly = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/users/${user.id}`,
      headers: { authorization: `Bearer ${idToken}`, origin: FOREIGN, cookie: 'theme=dark' },
      payload: { given_name: 'Robin' },
    });
    expect(bearerOnly.statusCode).toBe(200);
  });
});
