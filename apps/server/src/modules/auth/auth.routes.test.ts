import { eq } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT, generateKeyPair, importJWK, type JWK } from 'jose';
import { symmetricDecrypt } from 'better-auth/crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { account, jwks, licenseAcceptance, user, verification } from '../../db/schema/auth.js';
import { hashToken } from '../../lib/ids.js';
import { invitation } from '../../db/schema/invitations.js';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { addMember, findUser, insertGroup, insertUser, TEST_PASSWORD } from '../../../test/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const LINK = /https?:\/\/[^\s"'<>]+/;
async function mailTo(address: string, subject: RegExp) {
  return vi.waitFor(() => {
    const message = [...t.outbox].reverse().find((m) => m.to === address && subject.test(m.subject));
    if (!message) throw new Error(`no mail to ${address}`);
    return message;
  });
}
const linkIn = (text: string) => new URL(LINK.exec(text)?.[0] ?? '');

async function signedIn(email: string, password = TEST_PASSWORD, ip = '10.0.0.1') {
  const client = createClient(t.app, { ip });
  const response = await client.post('/api/users/auth/sign-in', { email, password });
  expect(response.statusCode).toBe(200);
  return client;
}

async function tokenFor(email: string) {
  const client = await signedIn(email);
  const response = await client.post('/api/users/auth/token');
  expect(response.statusCode).toBe(200);
  const body = response.json();
  client.setBearer(body.idToken);
  return { client, idToken: body.idToken as string, payload: body.idTokenPayload };
}

describe('sign-in', () => {
  it('refuses a missing password with the spec text', async () => {
    const response = await createClient(t.app).post('/api/users/auth/sign-in', { email: 'a@example.test', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(response.json().message).toContain('Must specify a password.');
  });

  it('refuses malformed JSON and wrong types with a 4xx JSON error', async () => {
    const client = createClient(t.app);
    const malformed = await client.request({
      method: 'POST',
      url: '/api/users/auth/sign-in',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_FAILED');
    const wrongType = await client.post('/api/users/auth/sign-in', { email: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
  });

  it('trims and lowercases the e-mail, sets the session cookie and answers the user', async () => {
    const user = await insertUser(t.db, { email: 'casey@example.test' });
    const client = createClient(t.app);
    const response = await client.post('/api/users/auth/sign-in', { email: '  Casey@Example.TEST ', password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: user.id, email: 'casey@example.test', emailVerified: true },
      licenseToken: null,
    });
    expect(response.headers['set-cookie']).toBeDefined();
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it('answers the same for a wrong password and an unknown account', async () => {
    await insertUser(t.db, { email: 'known@example.test' });
    const wrong = await createClient(t.app, { ip: '10.9.0.1' }).post('/api/users/auth/sign-in', {
      email: 'known@example.test',
      password: 'Wrong-Pass-1',
    });
    const unknown = await createClient(t.app, { ip: '10.9.0.2' }).post('/api/users/auth/sign-in', {
      email: 'nobody@example.test',
      password: 'Wrong-Pass-1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('limits failed sign-ins per account and client with 429 and Retry-After, even for the right password; not the owner elsewhere', async () => {
    const user = await insertUser(t.db, { email: 'limited@example.test' });
    const client = createClient(t.app, { ip: '10.1.1.1' });
    for (let i = 0; i < 5; i += 1) {
      expect((await client.post('/api/users/auth/sign-in', { email: user.email, password: 'Wrong-Pass-1' })).statusCode).toBe(
        401,
      );
    }
    const limited = await client.post('/api/users/auth/sign-in', { email: user.email, password: TEST_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The lock is on the account for that client: the owner elsewhere is not locked out (decision 0039).
    const elsewhere = await createClient(t.app, { ip: '10.1.1.2' }).post('/api/users/auth/sign-in', {
      email: user.email,
      password: TEST_PASSWORD,
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('counts only failures: a successful sign-in starts the account afresh', async () => {
    const user = await insertUser(t.db, { email: 'afresh@example.test' });
    const client = createClient(t.app, { ip: '10.1.2.1' });
    const attempt = (password: string) => client.post('/api/users/auth/sign-in', { email: user.email, password });
    for (let i = 0; i < 4; i += 1) expect((await attempt('Wrong-Pass-1')).statusCode).toBe(401);
    expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await attempt('Wrong-Pass-1')).statusCode).toBe(401);
    expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('limits failed sign-ins per IP across accounts', async () => {
    const client = createClient(t.app, { ip: '10.2.2.2' });
    for (let i = 0; i < 50; i += 1) {
      await client.post('/api/users/auth/sign-in', { email: `spray${i}@example.test`, password: 'Wrong-Pass-1' });
    }
    const limited = await client.post('/api/users/auth/sign-in', { email: 'spray-last@example.test', password: 'Wrong-Pass-1' });
    expect(limited.statusCode).toBe(429);
  });

  it('signs out: the session no longer yields tokens', async () => {
    const user = await insertUser(t.db);
    const client = await signedIn(user.email);
    expect((await client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(401);
  });
});

describe('ID tokens', () => {
  it('needs a session', async () => {
    const response = await createClient(t.app).post('/api/users/auth/token');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
  });

  it('carries the standard and product claims, 1 h for non-students', async () => {
    const orgId = await insertGroup(t.db, { name: 'Claims Org', seats: 5, productType: 'NURSING', ai: true });
    const user = await insertUser(t.db, { role: 'ADMIN', givenName: 'Ada', familyName: 'Admin' });
    await addMember(t.db, orgId, user.id, 'ADMIN');
    const { payload } = await tokenFor(user.email);
    expect(payload).toMatchObject({
      sub: user.id,
      email: user.email,
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Admin',
      role: 'ADMIN',
      groups: [orgId],
      productType: 'NURSING',
      aiActive: true,
      org: orgId,
      inactive: false,
      iss: TEST_PUBLIC_URL,
      aud: 'patientsim',
    });
    expect(payload.permissions).toContain('org:invite');
    expect(payload.app_metadata).toMatchObject({ role: 'ADMIN', activeOrg: orgId, orgSpecificRoles: { [orgId]: 'ADMIN' } });
    expect(payload.groupsData).toEqual([
      { _id: orgId, name: 'Claims Org', parent: null, role: 'ADMIN', productType: 'NURSING', inactive: false },
    ]);
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it('lasts 1200 s for students', async () => {
    const user = await insertUser(t.db, { role: 'STUDENT' });
    const { payload } = await tokenFor(user.email);
    expect(payload.exp - payload.iat).toBe(1200);
    expect(payload.permissions).not.toContain('org:invite');
  });

  it('is published: JWKS and OpenID discovery', async () => {
    const discovery = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(200);
    expect(discovery.json()).toMatchObject({ issuer: TEST_PUBLIC_URL, jwks_uri: `${TEST_PUBLIC_URL}/api/auth/jwks` });
    const keys = await t.app.inject({ method: 'GET', url: '/api/auth/jwks' });
    expect(keys.statusCode).toBe(200);
    expect(keys.json().keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys.json())).not.toContain('"d"');
  });
});

describe('bearer verification', () => {
  let valid: string;
  let userId: string;
  beforeAll(async () => {
    const user = await insertUser(t.db, { role: 'USER' });
    userId = user.id;
    valid = (await tokenFor(user.email)).idToken;
  });
  const groupsWith = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/users/extension/users/${userId}/groups`,
      headers: { authorization: `Bearer ${token}` },
    });

  async function realKey() {
    const [row] = await t.db.select().from(jwks);
    const jwk = JSON.parse(await symmetricDecrypt({ key: t.secret, data: JSON.parse(row?.privateKey ?? '""') })) as JWK;
    return { kid: row?.id ?? '', key: await importJWK(jwk, 'EdDSA') };
  }
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());

  it('accepts a valid token', async () => {
    expect((await groupsWith(valid)).statusCode).toBe(200);
  });

  it('refuses a missing or malformed Authorization header', async () => {
    const none = await t.app.inject({ method: 'GET', url: `/api/users/extension/users/${userId}/groups` });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('UNAUTHENTICATED');
    expect((await groupsWith('not-a-jwt')).statusCode).toBe(401);
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = valid.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claimsOf(valid), role: 'SUPER_ADMIN' })).toString('base64url');
    const response = await groupsWith(`${header}.${forged}.${signature}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('TOKEN_INVALID');
  });

  it("refuses alg 'none'", async () => {
    const unsigned = new UnsecuredJWT(claimsOf(valid)).encode();
    expect((await groupsWith(unsigned)).statusCode).toBe(401);
  });

  it('refuses a token signed with another key', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const { kid } = await realKey();
    const token = await new SignJWT(claimsOf(valid)).setProtectedHeader({ alg: 'EdDSA', kid }).sign(privateKey);
    expect((await groupsWith(token)).statusCode).toBe(401);
  });

  it('refuses an expired token and a wrong audience or issuer', async () => {
    const { kid, key } = await realKey();
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ ...claimsOf(valid), ...claims }).setProtectedHeader({ alg: 'EdDSA', kid }).sign(key);
    expect((await groupsWith(await sign({}))).statusCode).toBe(200);
    expect((await groupsWith(await sign({ iat: now - 7200, exp: now - 3600 }))).statusCode).toBe(401);
    expect((await groupsWith(await sign({ aud: 'another-app' }))).statusCode).toBe(401);
    expect((await groupsWith(await sign({ iss: 'https://evil.example' }))).statusCode).toBe(401);
  });
});

describe('license', () => {
  it('stops sign-in completion until version 1.0 is accepted, then records it', async () => {
    const user = await insertUser(t.db, { license: false });
    const client = await signedIn(user.email);
    const refused = await client.post('/api/users/auth/token');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('LICENSE_NOT_ACCEPTED');
    const licenseToken = refused.json().details.licenseToken as string;
    expect(licenseToken.length).toBeGreaterThan(20);

    expect((await client.post('/api/users/auth/accept-license', { token: licenseToken, version: '2.0' })).statusCode).toBe(400);
    const forged = await client.post('/api/users/auth/accept-license', {
      token: `${licenseToken.slice(0, -4)}AAAA`,
      version: '1.0',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('LICENSE_TOKEN_INVALID');
    expect((await t.db.select().from(licenseAcceptance).where(eq(licenseAcceptance.userId, user.id))).length).toBe(0);

    const accepted = await client.post('/api/users/auth/accept-license', { token: licenseToken, version: '1.0' });
    expect(accepted.statusCode).toBe(200);
    const rows = await t.db.select().from(licenseAcceptance).where(eq(licenseAcceptance.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.version).toBe('1.0');
    expect(rows[0]?.acceptedAt).toBeInstanceOf(Date);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
  });

  it('tells the sign-in whether the license is still to accept, with the token the license screen needs', async () => {
    const accepted = await insertUser(t.db);
    const signIn = (email: string) => createClient(t.app).post('/api/users/auth/sign-in', { email, password: TEST_PASSWORD });
    const alreadyAccepted = await signIn(accepted.email);
    expect(alreadyAccepted.statusCode).toBe(200);
    expect(alreadyAccepted.json()).toMatchObject({ user: { id: accepted.id }, licenseToken: null });

    const pending = await insertUser(t.db, { license: false });
    const client = createClient(t.app);
    const answer = await client.post('/api/users/auth/sign-in', { email: pending.email, password: TEST_PASSWORD });
    expect(answer.statusCode).toBe(200);
    const licenseToken: string = answer.json().licenseToken;
    expect(licenseToken.length).toBeGreaterThan(20);
    // The token is the one accept-license takes; then the session's ID token is issued.
    expect((await client.post('/api/users/auth/accept-license', { token: licenseToken, version: '1.0' })).statusCode).toBe(200);
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(200);
    // A wrong password still learns nothing, license or not.
    const wrong = await createClient(t.app).post('/api/users/auth/sign-in', {
      email: pending.email,
      password: 'Wrong-Pass-2026',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).not.toHaveProperty('licenseToken');
  });
});

describe('sign-up', () => {
  it('plain sign-up mails a link; the invite variant creates a verified account and signs in', async () => {
    const email = 'newcomer@example.test';
    const client = createClient(t.app);
    const invited = await client.post('/api/users/invitations/invite-unaffiliated', {
      email: ' NewComer@Example.test ',
      accountType: 'NURSING',
    });
    expect(invited.statusCode).toBe(200);
    const link = linkIn((await mailTo(email, /Finish creating/)).text);
    expect(link.pathname).toBe('/auth/signup');
    expect(link.searchParams.get('email')).toBe(email);
    const token = link.searchParams.get('token') ?? '';

    const described = await client.get(`/api/users/auth/signup-invitation?token=${token}&email=${email}`);
    expect(described.json()).toEqual({ email, orgName: null });

    const weak = await client.post('/api/users/auth/sign-up', {
      token,
      email,
      given_name: 'New',
      family_name: 'Comer',
      password: 'weakpass',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('invalid_password');
    expect(weak.json().message).toBe(`Password is too weak. ${PASSWORD_POLICY_TEXT}`);

    const otherEmail = await client.post('/api/users/auth/sign-up', {
      token,
      email: 'other@example.test',
      given_name: 'New',
      family_name: 'Comer',
      password: 'Strong-Pass-1',
    });
    expect(otherEmail.statusCode).toBe(403);

    const created = await client.post('/api/users/auth/sign-up', {
      token,
      email,
      given_name: ' New ',
      family_name: 'Comer',
      password: 'Strong-Pass-1',
    });
    expect(created.statusCode).toBe(200);
    const stored = await findUser(t.db, created.json().user.id);
    expect(stored).toMatchObject({
      email,
      givenName: 'New',
      familyName: 'Comer',
      emailVerified: true,
      productType: 'NURSING',
      role: 'STUDENT',
    });
    // Signed in straight away; the license comes next.
    expect((await client.post('/api/users/auth/token')).json().code).toBe('LICENSE_NOT_ACCEPTED');

    const replay = await createClient(t.app).post('/api/users/auth/sign-up', {
      token,
      email,
      given_name: 'New',
      family_name: 'Comer',
      password: 'Strong-Pass-1',
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('INVITATION_INVALID');
  });

  it('answers the same for an address that has an account, and mails a sign-in reminder', async () => {
    const user = await insertUser(t.db, { email: 'existing@example.test' });
    const response = await createClient(t.app).post('/api/users/invitations/invite-unaffiliated', {
      email: user.email,
      accountType: 'EMS',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await mailTo(user.email, /already have/)).text).toContain('/auth/login');
  });

  it('leaves nothing of a sign-up refused after its account was written: no user, no credential, the invitation pending', async () => {
    const orgId = await insertGroup(t.db, { name: 'Full Org', seats: 1 });
    const holder = await insertUser(t.db);
    await addMember(t.db, orgId, holder.id, 'STUDENT');
    const email = 'no-seat-left@example.test';
    await t.db.insert(invitation).values({
      id: 'no-seat-1',
      orgId,
      email,
      role: 'STUDENT',
      tokenHash: hashToken('no-seat-token'),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const credentialsBefore = await t.db.$count(account);

    const refused = await createClient(t.app).post('/api/users/auth/sign-up', {
      token: 'no-seat-token',
      email,
      given_name: 'No',
      family_name: 'Seat',
      password: 'Seatless-Pass-2026',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('SEATS_EXCEEDED');
    expect(await t.db.select().from(user).where(eq(user.email, email))).toEqual([]);
    expect(await t.db.$count(account)).toBe(credentialsBefore);
    const [pending] = await t.db.select().from(invitation).where(eq(invitation.id, 'no-seat-1'));
    expect(pending?.status).toBe('pending');
  });

  it('creates one account when one invitation is followed twice at once; the other sign-up is refused', async () => {
    const email = 'twice-at-once@example.test';
    await t.db.insert(invitation).values({
      id: 'twice-1',
      orgId: null,
      email,
      role: 'STUDENT',
      tokenHash: hashToken('twice-token'),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const body = { token: 'twice-token', email, given_name: 'Twice', family_name: 'Over', password: 'Twice-Over-Pass-2026' };
    const answers = await Promise.all([
      createClient(t.app).post('/api/users/auth/sign-up', body),
      createClient(t.app).post('/api/users/auth/sign-up', body),
    ]);
    const [accepted, refused] = [...answers].sort((a, b) => a.statusCode - b.statusCode);
    expect(accepted?.statusCode).toBe(200);
    // Refused by the invitation already accepted, or by the account made meanwhile.
    expect(['INVITATION_INVALID', 'EMAIL_TAKEN']).toContain(refused?.json().code);
    const created = await t.db.select().from(user).where(eq(user.email, email));
    expect(created).toHaveLength(1);
    expect(await t.db.$count(account, eq(account.userId, created[0]?.id ?? ''))).toBe(1);
  });

  it('answers an address with a pending invitation as any other, and mails it a reminder instead of a sign-up link', async () => {
    const orgId = await insertGroup(t.db, { name: 'Inviting Org' });
    const email = 'invited-first@example.test';
    await t.db.insert(invitation).values({
      id: 'pending-first-1',
      orgId,
      email,
      role: 'STUDENT',
      tokenHash: 'pending-first-hash',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const response = await createClient(t.app).post('/api/users/invitations/invite-unaffiliated', { email, accountType: 'EMS' });
    const stranger = await createClient(t.app).post('/api/users/invitations/invite-unaffiliated', {
      email: 'not-invited@example.test',
      accountType: 'EMS',
    });
    expect(response.statusCode).toBe(stranger.statusCode);
    expect(response.json()).toEqual(stranger.json());
    const reminder = await mailTo(email, /pending invitation/);
    expect(reminder.text).toContain(
      `You have a pending invitation to ${email}. Please follow the link in your invite email to accept it.`,
    );
    expect(reminder.text).toContain('Inviting Org');
    expect(t.outbox.filter((m) => m.to === email).some((m) => m.text.includes('/auth/signup'))).toBe(false);
    expect((await t.db.select().from(invitation).where(eq(invitation.email, email))).map((row) => row.id)).toEqual([
      'pending-first-1',
    ]);
  });

  it('registers without a token: an unverified account that must verify before anything else', async () => {
    const email = 'registered@example.test';
    const client = createClient(t.app, { ip: '10.0.9.1' });
    const body = { email, given_name: 'Reg', family_name: 'Istered', password: 'Register-Pass-2026' };
    const registered = await client.post('/api/users/auth/register', body);
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual({ ok: true });
    expect(client.cookies.size).toBe(0);
    const [row] = await t.db.select().from(user).where(eq(user.email, email));
    expect(row).toMatchObject({ emailVerified: false, givenName: 'Reg' });

    // It can sign in (to accept the license and meet the verification screen), unverified.
    const signIn = await createClient(t.app, { ip: '10.0.9.2' }).post('/api/users/auth/sign-in', {
      email,
      password: body.password,
    });
    expect(signIn.json().user).toMatchObject({ email, emailVerified: false });

    const link = linkIn((await mailTo(email, /Verify/)).text);
    const followed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(followed.headers.location).toBe('/auth/emailVerified');
    expect((await findUser(t.db, row?.id ?? ''))?.emailVerified).toBe(true);

    // Again for the same address: the same answer, nothing created, the owner hears of it.
    const again = await createClient(t.app, { ip: '10.0.9.3' }).post('/api/users/auth/register', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ok: true });
    expect(await t.db.select().from(user).where(eq(user.email, email))).toHaveLength(1);
    expect((await mailTo(email, /already have/)).text).toContain('/auth/login');
  });

  it('refuses a weak password on register', async () => {
    const client = createClient(t.app, { ip: '10.0.9.4' });
    const weak = await client.post('/api/users/auth/register', {
      email: 'weak-register@example.test',
      given_name: 'W',
      family_name: 'R',
      password: 'Password1',
    });
    expect(weak.json().code).toBe('invalid_password');
    // Refused passwords do not use up the address's sign-up mails (3 in 15 minutes).
    for (const password of ['Summer2026!', 'Password123!', 'PatientSim2026']) {
      const again = await client.post('/api/users/auth/register', {
        email: 'weak-register@example.test',
        given_name: 'W',
        family_name: 'R',
        password,
      });
      expect(again.json().code).toBe('invalid_password');
    }
    const strong = await client.post('/api/users/auth/register', {
      email: 'weak-register@example.test',
      given_name: 'W',
      family_name: 'R',
      password: 'Register-Pass-2026',
    });
    expect(strong.statusCode).toBe(200);
    await mailTo('weak-register@example.test', /Verify/);
  });

  it('answers register for an address with a pending invitation as for any other, creates nothing and mails a reminder', async () => {
    const client = createClient(t.app, { ip: '10.0.9.5' });
    const orgId = await insertGroup(t.db, { name: 'Register Org' });
    await t.db.insert(invitation).values({
      id: 'pending-register-1',
      orgId,
      email: 'invited-register@example.test',
      role: 'STUDENT',
      tokenHash: 'pending-register-hash',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const body = { given_name: 'I', family_name: 'R', password: 'Register-Pass-2026' };
    const pending = await client.post('/api/users/auth/register', { ...body, email: 'invited-register@example.test' });
    const stranger = await client.post('/api/users/auth/register', { ...body, email: 'stranger-register@example.test' });
    expect(pending.statusCode).toBe(stranger.statusCode);
    expect(pending.json()).toEqual(stranger.json());
    expect(await t.db.select().from(user).where(eq(user.email, 'invited-register@example.test'))).toHaveLength(0);
    expect((await mailTo('invited-register@example.test', /pending invitation/)).text).toContain('Register Org');
  });

  it('refuses an unknown account type and a bad e-mail', async () => {
    const client = createClient(t.app);
    expect(
      (await client.post('/api/users/invitations/invite-unaffiliated', { email: 'x@example.test', accountType: 'PIRATE' }))
        .statusCode,
    ).toBe(400);
    const bad = await client.post('/api/users/invitations/invite-unaffiliated', { email: 'not-an-email', accountType: 'EMS' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Invalid email address');
  });
});

describe('password reset', () => {
  it('mails a single-use link, ends other sessions, and the new password works', async () => {
    const user = await insertUser(t.db, { email: 'forgetful@example.test' });
    const otherSession = await signedIn(user.email);
    const client = createClient(t.app);
    expect((await client.post('/api/users/auth/request-password-reset', { email: user.email })).statusCode).toBe(200);
    const link = linkIn((await mailTo(user.email, /Reset/)).text);
    expect(link.pathname).toBe('/auth/reset-password');
    const token = link.searchParams.get('token') ?? '';

    const weak = await client.post('/api/users/auth/reset-password', { token, newPassword: 'short' });
    expect(weak.json().code).toBe('invalid_password');
    expect((await client.post('/api/users/auth/reset-password', { token, newPassword: 'Brand-New-Pass-9' })).statusCode).toBe(
      200,
    );
    expect((await otherSession.post('/api/users/auth/token')).statusCode).toBe(401);
    expect((await client.post('/api/users/auth/sign-in', { email: user.email, password: 'Brand-New-Pass-9' })).statusCode).toBe(
      200,
    );

    const replay = await client.post('/api/users/auth/reset-password', { token, newPassword: 'Another-Pass-9' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('RESET_TOKEN_INVALID');
  });

  it('answers unknown addresses exactly like known ones, and limits e-mails per address', async () => {
    const known = await insertUser(t.db, { email: 'reset-known@example.test' });
    const client = createClient(t.app);
    const a = await client.post('/api/users/auth/request-password-reset', { email: known.email });
    const b = await client.post('/api/users/auth/request-password-reset', { email: 'reset-unknown@example.test' });
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.body).toBe(b.body);
    await client.post('/api/users/auth/request-password-reset', { email: known.email });
    await client.post('/api/users/auth/request-password-reset', { email: known.email });
    const limited = await client.post('/api/users/auth/request-password-reset', { email: known.email });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('mails no link to a deleted account, answers as for any address, and refuses a link it got before', async () => {
    const gone = await insertUser(t.db, { email: 'reset-deleted@example.test' });
    const client = createClient(t.app, { ip: '10.0.8.1' });
    expect((await client.post('/api/users/auth/request-password-reset', { email: gone.email })).statusCode).toBe(200);
    const earlier = linkIn((await mailTo(gone.email, /Reset/)).text).searchParams.get('token') ?? '';
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, gone.id));
    const mailsBefore = t.outbox.filter((m) => m.to === gone.email).length;

    const deleted = await client.post('/api/users/auth/request-password-reset', { email: gone.email });
    const unknown = await client.post('/api/users/auth/request-password-reset', { email: 'reset-nobody@example.test' });
    expect(deleted.statusCode).toBe(unknown.statusCode);
    expect(deleted.body).toBe(unknown.body);
    // No new reset token was made for it, and a live account's mail sent after it came alone.
    const tokens = await t.db.select().from(verification).where(eq(verification.value, gone.id));
    expect(tokens).toHaveLength(1);
    const live = await insertUser(t.db, { email: 'reset-live@example.test' });
    await client.post('/api/users/auth/request-password-reset', { email: live.email });
    await mailTo(live.email, /Reset/);
    expect(t.outbox.filter((m) => m.to === gone.email)).toHaveLength(mailsBefore);

    const reset = await client.post('/api/users/auth/reset-password', { token: earlier, newPassword: 'Brand-New-Pass-9' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().code).toBe('RESET_TOKEN_INVALID');
  });

  it('refuses a made-up token', async () => {
    const response = await createClient(t.app).post('/api/users/auth/reset-password', {
      token: 'made-up-token-123',
      newPassword: 'Brand-New-Pass-9',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('RESET_TOKEN_INVALID');
  });
});

describe('e-mail verification', () => {
  it('mails a link that verifies the address and lands on /auth/emailVerified', async () => {
    const user = await insertUser(t.db, { email: 'unverified@example.test', verified: false });
    const { client, payload } = await tokenFor(user.email);
    expect(payload.email_verified).toBe(false);
    expect((await client.post('/api/users/jobs/verification-email', { user_id: user.id, client_id: 'web' })).statusCode).toBe(
      200,
    );
    const link = linkIn((await mailTo(user.email, /Verify/)).text);
    expect(link.pathname).toBe('/api/auth/verify-email');
    const followed = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toContain('/auth/emailVerified');
    expect((await findUser(t.db, user.id))?.emailVerified).toBe(true);
    // The renewed token says so at once (no stale cached claims).
    expect((await client.post('/api/users/auth/token')).json().idTokenPayload.email_verified).toBe(true);
  });

  it("refuses another user's id, and callers without a token", async () => {
    const user = await insertUser(t.db, { verified: false });
    const other = await insertUser(t.db, { verified: false });
    const { client } = await tokenFor(user.email);
    expect((await client.post('/api/users/jobs/verification-email', { user_id: other.id })).statusCode).toBe(404);
    const anonymous = await createClient(t.app).post('/api/users/jobs/verification-email', { user_id: user.id });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('organisation choice', () => {
  it("switches the active organisation among the user's own, and refuses others", async () => {
    const first = await insertGroup(t.db, { name: 'Alpha Org' });
    const second = await insertGroup(t.db, { name: 'Beta Org', productType: 'NURSING' });
    const foreign = await insertGroup(t.db, { name: 'Foreign Org' });
    const user = await insertUser(t.db, { role: 'USER' });
    await addMember(t.db, first, user.id, 'USER');
    await addMember(t.db, second, user.id, 'USER');
    const { client } = await tokenFor(user.email);
    expect((await client.post('/api/users/auth/changeOrg', { orgId: second })).statusCode).toBe(200);
    const renewed = (await client.post('/api/users/auth/token')).json().idTokenPayload;
    expect(renewed.org).toBe(second);
    expect(renewed.productType).toBe('NURSING');
    const refused = await client.post('/api/users/auth/changeOrg', { orgId: foreign });
    expect(refused.statusCode).toBe(404);
    expect((await client.post('/api/users/auth/changeOrg', {})).statusCode).toBe(400);
  });
});

describe('GET /extension/users/{userId}/groups', () => {
  it('answers the own groups in the wire shape; another organisation gets 404', async () => {
    const org = await insertGroup(t.db, { name: 'Wire Org', seats: 12 });
    const sub = await insertGroup(t.db, { name: `${org.slice(0, 4)}::Cohort`, parentId: org });
    const otherOrg = await insertGroup(t.db, { name: 'Elsewhere Org' });
    const admin = await insertUser(t.db, { role: 'ADMIN' });
    const member = await insertUser(t.db, { role: 'STUDENT' });
    const outsider = await insertUser(t.db, { role: 'ADMIN' });
    await addMember(t.db, org, admin.id, 'ADMIN');
    await addMember(t.db, org, member.id, 'STUDENT');
    await addMember(t.db, sub, member.id, 'STUDENT');
    await addMember(t.db, otherOrg, outsider.id, 'ADMIN');

    const own = await tokenFor(member.email);
    const response = await own.client.get(`/api/users/extension/users/${member.id}/groups`);
    expect(response.statusCode).toBe(200);
    const groups = response.json<Array<{ _id: string; name: string; description: string }>>();
    expect(groups.map((g) => g._id).sort()).toEqual([org, sub].sort());
    const orgMetadata = JSON.parse(groups.find((g) => g._id === org)?.description ?? '{}');
    expect(orgMetadata).toMatchObject({ seats: 12, memberCount: 2, productType: 'EMS', inactive: false });
    expect(orgMetadata.parent).toBeUndefined();
    expect(JSON.parse(groups.find((g) => g._id === sub)?.description ?? '{}').parent).toBe(org);

    const sameOrgAdmin = await tokenFor(admin.email);
    expect((await sameOrgAdmin.client.get(`/api/users/extension/users/${member.id}/groups`)).statusCode).toBe(200);

    const otherAdmin = await tokenFor(outsider.email);
    const refused = await otherAdmin.client.get(`/api/users/extension/users/${member.id}/groups`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('NOT_FOUND');

    const student = await tokenFor(member.email);
    expect((await student.client.get(`/api/users/extension/users/${admin.id}/groups`)).statusCode).toBe(404);
  });
});

describe('races and floods', () => {
  it('answers a conflict, not a 500, when two sign-ups race for one address', async () => {
    const email = 'racer@example.test';
    const client = createClient(t.app, { ip: '10.5.5.5' });
    await client.post('/api/users/invitations/invite-unaffiliated', { email, accountType: 'EMS' });
    const token = linkIn((await mailTo(email, /Finish creating/)).text).searchParams.get('token') ?? '';
    const body = { token, email, given_name: 'Race', family_name: 'Condition', password: 'Strong-Pass-1' };
    const answers = await Promise.all([
      client.post('/api/users/auth/sign-up', body),
      createClient(t.app).post('/api/users/auth/sign-up', body),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
  });

  it('limits sign-up e-mails per IP across addresses', async () => {
    const client = createClient(t.app, { ip: '10.6.6.6' });
    for (let i = 0; i < 30; i += 1) {
      expect(
        (await client.post('/api/users/invitations/invite-unaffiliated', { email: `flood${i}@example.test`, accountType: 'EMS' }))
          .statusCode,
      ).toBe(200);
    }
    const limited = await client.post('/api/users/invitations/invite-unaffiliated', {
      email: 'flood-last@example.test',
      accountType: 'EMS',
    });
    expect(limited.statusCode).toBe(429);
  });
});

describe('deleted accounts', () => {
  it('cannot sign in, and answer like a wrong password', async () => {
    const gone = await insertUser(t.db, { email: 'gone@example.test' });
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, gone.id));
    const client = createClient(t.app, { ip: '10.8.8.8' });
    const response = await client.post('/api/users/auth/sign-in', { email: gone.email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_CREDENTIALS');
    expect((await client.post('/api/users/auth/token')).statusCode).toBe(401);
  });
});
