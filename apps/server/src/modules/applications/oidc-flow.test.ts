import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { oauthRefreshToken } from '../../db/schema/oauth.js';
import { createResetToken } from '../../identity/auth.js';
import { TEST_PUBLIC_URL, buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient, type Client } from '../../../test/client.js';
import { insertGroup, insertMember, insertUser } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';

/**
 * The authorization-code flow of another of the platform's applications, played by openid-client
 * (a certified relying party) against PatientSim as its OpenID provider (decision 0065).
 */

const RP_CALLBACK = 'https://scenario-builder.example.test/callback';
const RP_AFTER_LOGOUT = 'https://scenario-builder.example.test/signed-out';

let t: TestApp;

/** openid-client's HTTP calls, answered by the app in process. */
const injectFetch: oidc.CustomFetch = async (url, options) => {
  const target = new URL(url);
  const response = await t.app.inject({
    method: options.method as 'GET',
    url: `${target.pathname}${target.search}`,
    headers: Object.fromEntries(new Headers(options.headers).entries()),
    ...(options.body === undefined || options.body === null ? {} : { payload: String(options.body as string) }),
  });
  return new Response(response.statusCode === 204 ? null : response.rawPayload, {
    status: response.statusCode,
    headers: Object.entries(response.headers).flatMap(([name, value]) =>
      [value].flat().map((one) => [name, String(one)] as [string, string]),
    ),
  });
};

async function relyingParty(clientId: string, clientSecret: string | null) {
  const config = await oidc.discovery(
    new URL(TEST_PUBLIC_URL),
    clientId,
    { id_token_signed_response_alg: 'EdDSA' },
    clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: injectFetch },
  );
  return config;
}

/** Follows the browser to the authorization endpoint with the person's PatientSim cookie; returns where it is sent. */
async function authorize(browser: Client, url: URL) {
  const response = await browser.get(`${url.pathname}${url.search}`, { 'sec-fetch-mode': 'navigate', accept: 'text/html' });
  expect([302, 303, 307]).toContain(response.statusCode);
  return new URL(String(response.headers.location));
}

let superAdmin: Awaited<ReturnType<typeof signInAs>>;
let confidential: { clientId: string; clientSecret: string };
let publicClient: { clientId: string };
let person: { email: string; password: string; id: string };
let orgId: string;

beforeAll(async () => {
  t = await buildTestApp();
  // The provider reads its own JWKS over HTTP at PUBLIC_URL to check a logout's id_token_hint; no
  // server listens in this test, so those calls are answered in process too.
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith(TEST_PUBLIC_URL) ? injectFetch(url, { method: 'GET', ...init } as never) : realFetch(input, init);
  });

  const admin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
  superAdmin = await signInAs(t, admin.email, admin.password);
  const registered = await superAdmin.client.post('/api/users/applications', {
    name: 'Scenario builder',
    type: 'confidential',
    redirectUris: [RP_CALLBACK],
    postLogoutRedirectUris: [RP_AFTER_LOGOUT],
  });
  expect(registered.statusCode, registered.body).toBe(200);
  confidential = { clientId: registered.json().application.clientId, clientSecret: registered.json().clientSecret };
  const registeredPublic = await superAdmin.client.post('/api/users/applications', {
    name: 'Assignments',
    type: 'public',
    redirectUris: [RP_CALLBACK],
  });
  expect(registeredPublic.statusCode).toBe(200);
  expect(registeredPublic.json().clientSecret).toBeNull();
  publicClient = { clientId: registeredPublic.json().application.clientId };
  orgId = await insertGroup(t.db, { name: 'Riverside EMS Academy' });
  person = await insertMember(t.db, orgId, { role: 'ADMIN', givenName: 'Riley', familyName: 'Stone' });
});

afterAll(() => {
  vi.unstubAllGlobals();
});

/** A browser that signed in to PatientSim as `account` with its password, holding only the session cookie. */
async function browserOf(account: { email: string; password: string }, ip: string) {
  const browser = createClient(t.app, { ip });
  const signIn = await browser.post('/api/users/auth/sign-in', { email: account.email, password: account.password });
  expect(signIn.statusCode).toBe(200);
  return browser;
}

/** Whether each refresh token granted to `userId` is revoked, in order (false first). */
async function revocationsOf(userId: string): Promise<boolean[]> {
  const grants = await t.db
    .select({ revoked: oauthRefreshToken.revoked })
    .from(oauthRefreshToken)
    .where(eq(oauthRefreshToken.userId, userId));
  return grants.map((row) => row.revoked !== null).sort();
}

/** The refresh token a confidential application is granted in the session of `browser`. */
async function grantRefreshToken(config: oidc.Configuration, browser: Client) {
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: RP_CALLBACK,
    scope: 'openid offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 'grant',
    nonce: 'grant',
  });
  const callback = await authorize(browser, url);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: 'grant',
    expectedNonce: 'grant',
  });
  expect(tokens.refresh_token).toBeTruthy();
  return tokens.refresh_token!;
}

/** A browser that signed in to PatientSim with its password, holding only the session cookie. */
function signedInBrowser(ip: string) {
  return browserOf(person, ip);
}

describe('OpenID discovery', () => {
  it('is one document openid-client accepts, with the issuer and keys of the product tokens', async () => {
    const config = await relyingParty(confidential.clientId, confidential.clientSecret);
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer: TEST_PUBLIC_URL,
      authorization_endpoint: `${TEST_PUBLIC_URL}/api/auth/oauth2/authorize`,
      token_endpoint: `${TEST_PUBLIC_URL}/api/auth/oauth2/token`,
      userinfo_endpoint: `${TEST_PUBLIC_URL}/api/auth/oauth2/userinfo`,
      end_session_endpoint: `${TEST_PUBLIC_URL}/api/auth/oauth2/end-session`,
      jwks_uri: `${TEST_PUBLIC_URL}/api/auth/jwks`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']));
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['role', 'org', 'permissions', 'productType']));
    expect(metadata.registration_endpoint).toBeUndefined();
  });
});

describe('authorization code with PKCE', () => {
  it('signs a person in: sign-in page, code, ID token with the product claims, userinfo, refresh, end-session', async () => {
    const config = await relyingParty(confidential.clientId, confidential.clientSecret);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: 'openid profile email offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    // Not signed in yet: to the product's sign-in page, with the signed query.
    const browser = createClient(t.app, { ip: '10.77.0.1' });
    const toLogin = await authorize(browser, url);
    expect(toLogin.origin + toLogin.pathname).toBe(`${TEST_PUBLIC_URL}/auth/login`);
    expect(toLogin.searchParams.get('sig')).toBeTruthy();
    expect(toLogin.searchParams.get('client_id')).toBe(confidential.clientId);

    // The sign-in page signs in, then continues with the signed query.
    const signIn = await browser.post('/api/users/auth/sign-in', { email: person.email, password: person.password });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().licenseToken).toBeNull();
    const continued = await browser.post('/api/auth/oauth2/continue', {
      postLogin: true,
      oauth_query: toLogin.search.slice(1),
    });
    expect(continued.statusCode).toBe(200);
    const callback = new URL(continued.json().url);
    expect(callback.origin + callback.pathname).toBe(RP_CALLBACK);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: TEST_PUBLIC_URL,
      aud: confidential.clientId,
      sub: person.id,
      email: person.email,
      given_name: 'Riley',
      family_name: 'Stone',
      role: 'ADMIN',
      org: orgId,
      groups: [orgId],
      productType: 'EMS',
    });
    expect(claims?.permissions).toEqual(expect.arrayContaining(['org:invite']));
    expect(tokens.refresh_token).toBeTruthy();

    // The same claims as the product's own ID token, from the same function; `amr` is the product
    // session's (decision 0066), which the plugin's claims hook is not given.
    const own = await browser.post('/api/users/auth/token');
    const { iss: _iss, aud: _aud, iat: _iat, exp: _exp, sid: _sid, amr: _amr, ...ownClaims } = own.json().idTokenPayload;
    for (const [name, value] of Object.entries(ownClaims)) expect(claims?.[name], name).toEqual(value);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, person.id);
    expect(info).toMatchObject({ sub: person.id, email: person.email, role: 'ADMIN', org: orgId });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe(person.id);
    // A refresh token is used once (rotation).
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();

    // RP-initiated logout ends the PatientSim session and returns to the registered address.
    const endUrl = oidc.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token ?? tokens.id_token!,
      post_logout_redirect_uri: RP_AFTER_LOGOUT,
      state: 'bye',
    });
    const ended = await browser.get(`${endUrl.pathname}${endUrl.search}`, { 'sec-fetch-mode': 'navigate', accept: 'text/html' });
    expect(ended.statusCode, ended.body.slice(0, 600)).toBeOneOf([302, 303, 307]);
    expect(String(ended.headers.location)).toContain(RP_AFTER_LOGOUT);
    expect((await browser.post('/api/users/auth/token')).statusCode).toBe(401);
  });

  it("ends an application's refresh token with the session it was granted in, and with everything the person is signed out of", async () => {
    const config = await relyingParty(confidential.clientId, confidential.clientSecret);
    const someone = await insertMember(t.db, orgId, { role: 'USER' });
    const grantIn = (browser: Client) => grantRefreshToken(config, browser);
    const signedIn = (ip: string) => browserOf(someone, ip);

    // Signed out from the session list of another device: the grant of that session dies, the
    // grant of the device that stays signed in lives.
    const laptop = await signedIn('10.77.1.1');
    const phone = await signedIn('10.77.1.2');
    const laptopGrant = await grantIn(laptop);
    const phoneGrant = await grantIn(phone);
    const laptopToken = (await laptop.post('/api/users/auth/token')).json().idToken as string;
    const listed = await laptop.get('/api/users/account/sessions', { authorization: `Bearer ${laptopToken}` });
    const phoneSession = listed.json().sessions.find((row: { isCurrent: boolean }) => !row.isCurrent);
    const ended = await laptop.request({
      method: 'DELETE',
      url: `/api/users/account/sessions/${phoneSession.id}`,
      headers: { authorization: `Bearer ${laptopToken}` },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await revocationsOf(someone.id)).toEqual([false, true]);
    // (Offering a revoked refresh token counts as a replay, after which the provider revokes the
    // person's other tokens of that application too: the phone's is offered last.)
    const renewed = await oidc.refreshTokenGrant(config, laptopGrant);

    // Signed out everywhere by an admin of the organisation: every grant dies.
    const admin = await signInAs(t, person.email, person.password);
    const signOut = await admin.client.post(`/api/users/extension/groups/${orgId}/members/${someone.id}/sign-out`);
    expect(signOut.statusCode, signOut.body).toBe(200);
    await expect(oidc.refreshTokenGrant(config, renewed.refresh_token!)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, phoneGrant)).rejects.toThrow();
  });

  it("ends an application's refresh tokens granted in the other sessions when the password changes, and every one when it is reset", async () => {
    const config = await relyingParty(confidential.clientId, confidential.clientSecret);
    const someone = await insertMember(t.db, orgId, { role: 'USER' });
    const laptop = await browserOf(someone, '10.77.2.1');
    const phone = await browserOf(someone, '10.77.2.2');
    const laptopGrant = await grantRefreshToken(config, laptop);
    const phoneGrant = await grantRefreshToken(config, phone);

    // The password changed on the laptop: the phone's session ends, and so does what it granted.
    const laptopToken = (await laptop.post('/api/users/auth/token')).json().idToken as string;
    const newPassword = 'Quiet-Harbour-Lantern-47';
    const changed = await laptop.post(
      '/api/users/account/change-password',
      { oldPassword: someone.password, newPassword },
      { authorization: `Bearer ${laptopToken}` },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await revocationsOf(someone.id)).toEqual([false, true]);
    const renewed = await oidc.refreshTokenGrant(config, laptopGrant);
    expect(renewed.refresh_token).toBeTruthy();

    // A reset (a mailbox proved, the password perhaps stolen): nothing granted before lives on.
    const resetToken = await createResetToken(t.app.auth, someone.email);
    const reset = await createClient(t.app, { ip: '10.77.2.3' }).post('/api/users/auth/reset-password', {
      token: resetToken,
      newPassword: 'Quiet-Harbour-Lantern-48',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await expect(oidc.refreshTokenGrant(config, renewed.refresh_token!)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, phoneGrant)).rejects.toThrow();
  });

  it('lets a person already signed in go straight through', async () => {
    const config = await relyingParty(publicClient.clientId, null);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'abc',
    });
    const browser = await signedInBrowser('10.77.0.2');
    const callback = await authorize(browser, url);
    expect(callback.origin + callback.pathname).toBe(RP_CALLBACK);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'abc' });
    expect(tokens.claims()).toMatchObject({ sub: person.id, role: 'ADMIN' });
    // A public client gets no refresh token.
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('sends a person who must still set up a second factor back to the sign-in page (decision 0066)', async () => {
    const school = await insertGroup(t.db, { name: 'Bay Nursing School', twoFactorRoles: ['ADMIN'] });
    const admin = await insertMember(t.db, school, { role: 'ADMIN' });
    const config = await relyingParty(publicClient.clientId, null);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: 'gate',
    });
    const browser = createClient(t.app, { ip: '10.77.0.9' });
    expect((await browser.post('/api/users/auth/sign-in', { email: admin.email, password: admin.password })).statusCode).toBe(
      200,
    );
    const sent = await authorize(browser, url);
    expect(sent.origin + sent.pathname).toBe(`${TEST_PUBLIC_URL}/auth/login`);
  });

  it('refuses a public client without PKCE', async () => {
    const config = await relyingParty(publicClient.clientId, null);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: RP_CALLBACK, scope: 'openid', state: 'nopkce' });
    const browser = await signedInBrowser('10.77.0.3');
    const answer = await authorize(browser, url);
    expect(answer.origin + answer.pathname).toBe(RP_CALLBACK);
    expect(answer.searchParams.get('code')).toBeNull();
    expect(answer.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a redirect_uri that is not registered, without going there', async () => {
    const config = await relyingParty(confidential.clientId, confidential.clientSecret);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: 'https://evil.example.test/callback',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = await signedInBrowser('10.77.0.4');
    const response = await browser.get(`${url.pathname}${url.search}`, { 'sec-fetch-mode': 'navigate', accept: 'text/html' });
    expect(String(response.headers.location ?? '')).not.toContain('evil.example.test');
    expect(String(response.headers.location ?? '')).toContain('error=invalid_redirect');
  });

  it('refuses a signed query that was changed', async () => {
    const config = await relyingParty(confidential.clientId, confidential.clientSecret);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: 'openid profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = createClient(t.app, { ip: '10.77.0.5' });
    const toLogin = await authorize(browser, url);
    const tampered = new URLSearchParams(toLogin.search);
    tampered.set('scope', 'openid profile email offline_access');
    expect((await browser.post('/api/users/auth/sign-in', { email: person.email, password: person.password })).statusCode).toBe(
      200,
    );
    const continued = await browser.post('/api/auth/oauth2/continue', { postLogin: true, oauth_query: tampered.toString() });
    expect(continued.statusCode).toBe(400);
    expect(continued.json()).toMatchObject({ error: 'invalid_signature' });
  });
});
