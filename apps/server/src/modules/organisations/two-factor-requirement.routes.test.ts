import { and, eq } from 'drizzle-orm';
import { fromNodeHeaders } from 'better-auth/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvent } from '../../db/schema/audit.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, insertMember, insertUser, signInNewMember, viewingAs } from '../../../test/fixtures.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { createClient } from '../../../test/client.js';
import { enrolTotp, totpCode } from '../../../test/two-factor.js';
import { issueIdToken } from '../auth/sign-in.service.js';

/**
 * An organisation's second-factor requirement (decision 0066): set by its admins through the
 * permission table, and enforced where ID tokens are minted.
 */

let t: TestApp;
let org: string;
let admin: Awaited<ReturnType<typeof signInNewMember>>;
const url = (id: string) => `/api/users/extension/groups/${id}/two-factor-requirement`;

beforeAll(async () => {
  t = await buildTestApp();
  org = await insertGroup(t.db, { name: 'Harbour Nursing School', seats: 50 });
  admin = await signInNewMember(t, org, { role: 'ADMIN' });
});

describe('the requirement', () => {
  it('is read and set by an admin, in the roles own order, audited with before and after', async () => {
    const own = await insertGroup(t.db, { name: 'Quay College', seats: 10 });
    const ownAdmin = await signInNewMember(t, own, { role: 'ADMIN' });
    expect((await ownAdmin.client.get(url(own))).json()).toEqual({ roles: [] });
    const set = await ownAdmin.client.request({ method: 'PUT', url: url(own), payload: { roles: ['ADMIN', 'USER'] } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ roles: ['USER', 'ADMIN'] });
    expect((await ownAdmin.client.get(url(own))).json()).toEqual({ roles: ['USER', 'ADMIN'] });
    const [event] = await t.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.orgId, own), eq(auditEvent.action, 'org.two-factor.require')));
    expect(event).toMatchObject({ actorId: ownAdmin.userId, targetId: own, details: { before: [], after: ['USER', 'ADMIN'] } });
  });

  it('refuses instructors and students (403), another organisation (404), sub-groups (404), signed-out callers and ended sessions (401)', async () => {
    for (const role of ['USER', 'STUDENT'] as const) {
      const member = await signInNewMember(t, org, { role });
      expect((await member.client.get(url(org))).statusCode).toBe(403);
      expect((await member.client.request({ method: 'PUT', url: url(org), payload: { roles: [] } })).statusCode).toBe(403);
    }
    const elsewhere = await insertGroup(t.db, { name: 'Elsewhere', seats: 5 });
    const outsider = await signInNewMember(t, elsewhere, { role: 'ADMIN' });
    expect((await outsider.client.get(url(org))).statusCode).toBe(404);
    expect((await outsider.client.request({ method: 'PUT', url: url(org), payload: { roles: ['ADMIN'] } })).statusCode).toBe(404);
    const subGroup = await insertGroup(t.db, { name: 'Cohort A', parentId: org });
    expect((await admin.client.get(url(subGroup))).statusCode).toBe(404);
    expect((await createClient(t.app).get(url(org))).statusCode).toBe(401);
    const leaving = await signInNewMember(t, org, { role: 'ADMIN' });
    await leaving.client.post('/api/users/auth/sign-out');
    const ended = await leaving.client.request({ method: 'PUT', url: url(org), payload: { roles: ['ADMIN'] } });
    expect(ended.statusCode).toBe(401);
    expect((await admin.client.get(url(org))).json()).toEqual({ roles: [] });
  });

  it('refuses unknown and repeated roles with 400', async () => {
    for (const roles of [['SUPER_ADMIN'], ['BOSS'], ['ADMIN', 'ADMIN'], 'ADMIN', ['STUDENT', 'USER', 'ADMIN', 'ADMIN']]) {
      const response = await admin.client.request({ method: 'PUT', url: url(org), payload: { roles } });
      expect(response.statusCode, JSON.stringify(roles)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a View-As-User token', async () => {
    const superAdmin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const viewer = await signInAs(t, superAdmin.email, superAdmin.password);
    const view = await viewingAs(t, { userId: admin.userId, viewer });
    const response = await view.request({ method: 'PUT', url: url(org), payload: { roles: ['ADMIN'] } });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('VIEW_AS_READ_ONLY');
  });
});

describe('enforcement at the token', () => {
  it('refuses a required member without a factor until they enrol in that session; students go on', async () => {
    const school = await insertGroup(t.db, { name: 'Bay Nursing School', seats: 20 });
    const schoolAdmin = await signInNewMember(t, school, { role: 'ADMIN' });
    const instructor = await insertMember(t.db, school, { role: 'USER' });
    const student = await insertMember(t.db, school, { role: 'STUDENT' });
    const before = await signInAs(t, instructor.email, instructor.password);
    const second = await signInAs(t, instructor.email, instructor.password);
    await schoolAdmin.client.request({ method: 'PUT', url: url(school), payload: { roles: ['USER', 'ADMIN'] } });

    // The instructor's session: no token until a factor is set up, at once (the caches were cleared).
    const gated = await before.client.post('/api/users/auth/token');
    expect(gated.statusCode).toBe(403);
    expect(gated.json().code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    const status = await before.client.get('/api/users/account/two-factor');
    expect(status.json().requiredBy).toEqual(['Bay Nursing School']);
    const { totpUri } = await enrolTotp(before.client, instructor.password);
    const minted = await before.client.post('/api/users/auth/token');
    expect(minted.statusCode).toBe(200);
    expect(minted.json().idTokenPayload.amr).toEqual(['pwd', 'otp']);

    // The last factor cannot go while it is required.
    const removing = await before.client.post('/api/users/account/two-factor/totp/remove', { password: instructor.password });
    expect(removing.statusCode).toBe(422);
    expect(removing.json().code).toBe('LAST_FACTOR_REQUIRED');

    // Students sign in with a password as before.
    expect((await signInAs(t, student.email, student.password)).payload.amr).toEqual(['pwd']);

    // Another session of the instructor's, signed in with the password only before they enrolled:
    // it ends, and they sign in again with the factor.
    expect(second.payload.amr).toEqual(['pwd']);
    const stale = await second.client.post('/api/users/auth/token');
    expect(stale.statusCode).toBe(401);
    expect(stale.json().code).toBe('SESSION_ENDED');
    const again = createClient(t.app, { ip: '10.69.0.9' });
    expect(
      (await again.post('/api/users/auth/sign-in', { email: instructor.email, password: instructor.password })).json(),
    ).toEqual({
      secondFactor: { methods: ['totp'] },
    });
    expect((await again.post('/api/users/auth/sign-in/two-factor', { kind: 'totp', code: totpCode(totpUri) })).statusCode).toBe(
      200,
    );
    expect((await again.post('/api/users/auth/token')).statusCode).toBe(200);
  });
});

describe('the platform rule for super admins', () => {
  it('requires a second factor of a super admin in production only', async () => {
    const superAdmin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    const signedIn = await signInAs(t, superAdmin.email, superAdmin.password);
    const headers = fromNodeHeaders({
      cookie: [...signedIn.client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    });
    const uncached = { get: <T>(_key: string, load: () => Promise<T>) => load(), clear: () => {}, clearLocal: () => {} };
    const ctx = { ...pickServices(t), cache: uncached };
    await expect(issueIdToken({ ctx, headers })).resolves.toMatchObject({ idTokenPayload: { sub: superAdmin.id } });
    await expect(issueIdToken({ ctx: { ...ctx, env: { ...t.app.env, NODE_ENV: 'production' } }, headers })).rejects.toMatchObject(
      {
        code: 'TWO_FACTOR_ENROLMENT_REQUIRED',
      },
    );
  });
});

/** The services the token's service reads, from the test's app. */
function pickServices({ app }: TestApp) {
  const { db, auth, tokens, licenseTokens, verificationTokens, deviceCookies, mailer, limiter, env, cache } = app;
  return { db, auth, tokens, licenseTokens, verificationTokens, deviceCookies, mailer, limiter, env, cache };
}
