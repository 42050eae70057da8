import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@patientsim/domain/roles/roles';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { signInAs, type SignedInSession } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertMember, insertUser, signInNewMember, viewingAs } from '../../../test/fixtures.js';
import { requireRedis, testRedisUrlOnDatabase } from '../../../test/redis.js';

/**
 * An organisation's admin signs a member out everywhere (decision 0064): every session of the member
 * ends at once, on the database alone and with better-auth's copies in Redis; audited in the
 * organisation; refused outside the organisation's reach.
 */

await requireRedis();

const engines: { name: string; env: Record<string, string> }[] = [
  { name: 'without Redis', env: {} },
  { name: 'with sessions in Redis', env: { REDIS_URL: testRedisUrlOnDatabase(1 + randomInt(15)) } },
];

describe.each(engines)('POST /extension/groups/{id}/members/{userId}/sign-out $name', ({ env }) => {
  let t: TestApp;
  let riverside: string;
  let keyOwner: SignedInSession;
  let admin: SignedInSession;
  let instructor: SignedInSession;
  let outsider: SignedInSession;
  let superAdmin: SignedInSession;

  beforeAll(async () => {
    t = await buildTestApp({ env });
    const owner = await insertUser(t.db, { role: 'ADMIN' });
    riverside = await insertGroup(t.db, { name: 'Riverside EMS Academy', seats: 50, ownerId: owner.id });
    await addMember(t.db, riverside, owner.id, 'ADMIN');
    keyOwner = await signInAs(t, owner.email, owner.password);
    admin = await signInNewMember(t, riverside, { role: 'ADMIN' });
    instructor = await signInNewMember(t, riverside, { role: 'USER' });
    const northgate = await insertGroup(t.db, { name: 'Northgate Nursing School', seats: 10 });
    outsider = await signInNewMember(t, northgate, { role: 'ADMIN' });
    const provider = await insertGroup(t.db, { name: 'PatientSim Provider' });
    superAdmin = await signInNewMember(t, provider, { role: 'SUPER_ADMIN' });
  });

  const signOut = (caller: SignedInSession, userId: string, orgId = riverside) =>
    caller.client.post(`/api/users/extension/groups/${orgId}/members/${userId}/sign-out`);

  /** A member of Riverside with `role`, signed in on two browsers. */
  async function memberOnTwoBrowsers(role: Role = 'STUDENT', orgId = riverside) {
    const member = await insertMember(t.db, orgId, { role });
    return {
      member,
      browsers: [await signInAs(t, member.email, member.password), await signInAs(t, member.email, member.password)],
    };
  }

  /** Whether a browser's cookie still renews a token and its ID token is still accepted. */
  async function isSignedIn(browser: SignedInSession) {
    const bearer = await browser.client.get('/api/users/account/sessions');
    const renewal = await browser.client.post('/api/users/auth/token');
    expect(bearer.statusCode === 200, 'the bearer and the cookie agree').toBe(renewal.statusCode === 200);
    if (bearer.statusCode !== 200) expect(bearer.json()).toMatchObject({ statusCode: 401, code: 'SESSION_ENDED' });
    return bearer.statusCode === 200;
  }

  it('ends every session of the member at once, and the audit trail says who did it to whom, where', async () => {
    const { member, browsers } = await memberOnTwoBrowsers();
    for (const browser of browsers) expect(await isSignedIn(browser)).toBe(true);
    const response = await signOut(admin, member.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    for (const browser of browsers) expect(await isSignedIn(browser)).toBe(false);
    // The password still works: a new session is the member's to open.
    expect(await isSignedIn(await signInAs(t, member.email, member.password))).toBe(true);
    expect(await isSignedIn(admin)).toBe(true);

    const trail = await admin.client.get(`/api/users/extension/groups/${riverside}/audit-events?action=org.user.sign-out`);
    expect(trail.statusCode).toBe(200);
    const [event] = trail.json().items.filter((item: { target: { id: string } }) => item.target.id === member.id);
    expect(event).toMatchObject({
      action: 'org.user.sign-out',
      actor: { id: admin.userId },
      viewingAs: null,
      target: { type: 'user', id: member.id, label: 'Test User' },
      organisation: { id: riverside, name: 'Riverside EMS Academy' },
    });
  });

  it('lets the key owner, and an admin named through a sub-group, sign out an admin', async () => {
    const { member, browsers } = await memberOnTwoBrowsers('ADMIN');
    expect((await signOut(keyOwner, member.id)).statusCode).toBe(200);
    for (const browser of browsers) expect(await isSignedIn(browser)).toBe(false);
    const cohort = await insertGroup(t.db, { name: 'Cohort A', parentId: riverside });
    const student = await memberOnTwoBrowsers();
    expect((await signOut(admin, student.member.id, cohort)).statusCode).toBe(200);
    for (const browser of student.browsers) expect(await isSignedIn(browser)).toBe(false);
  });

  it('refuses a malformed id with a JSON 400', async () => {
    for (const url of [
      `/api/users/extension/groups/${riverside}/members/not%20an%20id!/sign-out`,
      '/api/users/extension/groups/not%20an%20id!/members/0123456789abcdef/sign-out',
    ]) {
      const response = await admin.client.post(url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
  });

  it('refuses roles below admin with 403, and ends nothing', async () => {
    const { member, browsers } = await memberOnTwoBrowsers();
    const student = await signInAs(t, member.email, member.password);
    const other = await memberOnTwoBrowsers();
    for (const caller of [instructor, student]) {
      expect((await signOut(caller, other.member.id)).json()).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    }
    for (const browser of [...browsers, ...other.browsers]) expect(await isSignedIn(browser)).toBe(true);
  });

  it("refuses another organisation's admin, and a person who is not a member here, with 404", async () => {
    const { member, browsers } = await memberOnTwoBrowsers();
    expect((await signOut(outsider, member.id)).json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    const elsewhere = await memberOnTwoBrowsers('STUDENT', await insertGroup(t.db));
    expect((await signOut(admin, elsewhere.member.id)).json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((await signOut(admin, '0123456789abcdef')).statusCode).toBe(404);
    for (const browser of [...browsers, ...elsewhere.browsers]) expect(await isSignedIn(browser)).toBe(true);
  });

  it('refuses a provider account (ranked above any admin), the key owner and the caller themself (403)', async () => {
    const provider = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    await addMember(t.db, riverside, provider.id, 'STUDENT');
    const providerBrowser = await signInAs(t, provider.email, provider.password);
    const bystander = await memberOnTwoBrowsers('ADMIN');
    t.app.cache.clear();
    const refusals: [SignedInSession, string][] = [
      [admin, provider.id],
      [admin, keyOwner.userId],
      [admin, admin.userId],
      [keyOwner, keyOwner.userId],
    ];
    for (const [caller, userId] of refusals) {
      expect((await signOut(caller, userId)).json()).toMatchObject({ statusCode: 403, code: 'MEMBER_SIGN_OUT_LOCKED' });
    }
    for (const browser of [providerBrowser, keyOwner, admin, ...bystander.browsers]) expect(await isSignedIn(browser)).toBe(true);
  });

  it('refuses a session that ended (401) and a View-As-User token (403)', async () => {
    const ended = await signInNewMember(t, riverside, { role: 'ADMIN' });
    expect((await ended.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    const { member, browsers } = await memberOnTwoBrowsers();
    expect((await signOut(ended, member.id)).json()).toMatchObject({ statusCode: 401, code: 'SESSION_ENDED' });
    const view = await viewingAs(t, { userId: admin.userId, viewer: superAdmin });
    const viewed = await view.post(`/api/users/extension/groups/${riverside}/members/${member.id}/sign-out`);
    expect(viewed.json()).toMatchObject({ statusCode: 403, code: 'VIEW_AS_READ_ONLY' });
    for (const browser of browsers) expect(await isSignedIn(browser)).toBe(true);
  });
});
