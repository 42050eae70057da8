import { and, eq } from 'drizzle-orm';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ID_TOKEN_AUDIENCE, STUDENT_SESSION_SECONDS } from '@patientsim/domain/common/constants';
import { auditEvent } from '../../db/schema/audit.js';
import { session, user } from '../../db/schema/auth.js';
import { groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { endUserSessions } from '../../identity/sessions.js';
import { buildInvitation } from '../../seed/builders.js';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertGroup, insertMember, signInNewMember, TEST_PASSWORD } from '../../../test/fixtures.js';
import { signInAs, type SignedInSession } from '../../../test/sign-in-client.js';

let t: TestApp;
let provider: string;
let riverside: string;
let northgate: string;
let superAdmin: SignedInSession;
let instructor: { id: string; email: string };
let student: { id: string; email: string };

beforeAll(async () => {
  t = await buildTestApp();
  provider = await insertGroup(t.db, { name: 'Provider' });
  riverside = await insertGroup(t.db, { name: 'Riverside EMS Academy' });
  northgate = await insertGroup(t.db, { name: 'Northgate Nursing School', productType: 'NURSING' });
  superAdmin = await signInNewMember(t, provider, { role: 'SUPER_ADMIN', givenName: 'Sam', familyName: 'Super' });
  instructor = await insertMember(t.db, riverside, { role: 'USER', givenName: 'Ina', familyName: 'Structor' });
  student = await insertMember(t.db, riverside, { role: 'STUDENT', givenName: 'Stu', familyName: 'Dent' });
});

afterEach(() => {
  vi.useRealTimers();
});

const loginAs = (session: SignedInSession, payload: unknown) => session.client.post('/api/users/auth/loginAs', payload);

/** A client holding only the View-As-User token (no session cookie), as the viewed tab's calls do. */
function viewClient(idToken: string) {
  const client = createClient(t.app);
  client.setBearer(idToken);
  return client;
}

async function startView(email: string, reason?: string, from: SignedInSession = superAdmin) {
  const response = await loginAs(from, { orgId: riverside, email, ...(reason ? { reason } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  const { idToken, idTokenPayload } = response.json().data;
  return { idToken: idToken as string, payload: idTokenPayload, client: viewClient(idToken) };
}

function eventsOf(action: string, targetId: string) {
  return t.db
    .select()
    .from(auditEvent)
    .where(and(eq(auditEvent.action, action), eq(auditEvent.targetId, targetId)));
}

describe('POST /auth/loginAs', () => {
  it('answers data.idToken for the person, with an act claim naming the super admin, verifiable against the published JWKS', async () => {
    const response = await loginAs(superAdmin, { orgId: riverside, email: instructor.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { idToken } = response.json().data;
    const keys = await t.app.inject({ method: 'GET', url: '/api/auth/jwks' });
    const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(keys.json<JSONWebKeySet>()), {
      issuer: TEST_PUBLIC_URL,
      audience: ID_TOKEN_AUDIENCE,
    });
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({
      sub: instructor.id,
      email: instructor.email,
      given_name: 'Ina',
      family_name: 'Structor',
      role: 'USER',
      org: riverside,
      act: { sub: superAdmin.userId },
    });
    expect(payload.sid).not.toBe(superAdmin.payload.sid);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(3600);
    expect(payload.exp! - payload.iat!).toBeGreaterThan(3500);
  });

  it('lets the token read what the person sees, as that person', async () => {
    const view = await startView(instructor.email);
    const groups = await view.client.get(`/api/users/extension/users/${instructor.id}/groups`);
    expect(groups.statusCode).toBe(200);
    expect(groups.json().map((g: { _id: string }) => g._id)).toEqual([riverside]);
    // The person's reach, not the super admin's: another organisation stays out of sight.
    expect((await view.client.get(`/api/users/extension/groups/${northgate}`)).statusCode).toBe(404);
    expect((await view.client.get('/api/users/audit-events')).statusCode).toBe(403);
  });

  it('refuses changes made through the view, and a view started from within a view', async () => {
    const view = await startView(instructor.email);
    const profile = await view.client.request({
      method: 'PATCH',
      url: `/api/users/users/${instructor.id}`,
      payload: { given_name: 'Changed' },
    });
    expect(profile.statusCode).toBe(403);
    expect(profile.json().code).toBe('VIEW_AS_READ_ONLY');
    const nested = await view.client.post('/api/users/auth/loginAs', { orgId: riverside, email: student.email });
    expect(nested.statusCode).toBe(403);
  });

  it("leaves the person's notifications unread: marking them through the view is refused", async () => {
    const sent = await superAdmin.client.post('/api/users/notifications', {
      title: 'Skills check',
      message: 'On Friday at 9.',
      targets: [{ principalType: 'USER', principalId: instructor.id }],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json().data.notification._id as string;
    const view = await startView(instructor.email);
    expect((await view.client.post(`/api/users/notifications/${id}/read`)).statusCode).toBe(403);
    const pending = await view.client.get('/api/users/notifications/pending');
    expect(pending.json().data.notifications.map((n: { _id: string }) => n._id)).toContain(id);
  });

  it('lasts no longer than the person’s own token: 1200 s for a student', async () => {
    const view = await startView(student.email);
    expect(view.payload.exp - view.payload.iat).toBeLessThanOrEqual(STUDENT_SESSION_SECONDS);
  });

  it('refuses viewing the product as another super admin', async () => {
    const other = await insertMember(t.db, riverside, { role: 'SUPER_ADMIN' });
    const response = await loginAs(superAdmin, { orgId: riverside, email: other.email });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message: 'You cannot view the product as another super admin.' });
    // A super admin role held only in one organisation counts too.
    const orgSuperAdmin = await insertMember(t.db, riverside, { role: 'STUDENT' });
    await t.db.update(groupMember).set({ role: 'SUPER_ADMIN' }).where(eq(groupMember.userId, orgSuperAdmin.id));
    t.app.cache.clear();
    expect((await loginAs(superAdmin, { orgId: riverside, email: orgSuperAdmin.email })).statusCode).toBe(403);
  });

  it('refuses every request of a view whose person became a super admin since, reads too, so a view never holds staff permissions', async () => {
    const promoted = await insertMember(t.db, riverside, { role: 'STUDENT' });
    const view = await startView(promoted.email);
    expect((await view.client.get('/api/users/extension/groups')).statusCode).toBe(200);
    await t.db.update(user).set({ role: 'SUPER_ADMIN' }).where(eq(user.id, promoted.id));
    t.app.cache.clear();
    for (const url of ['/api/users/extension/groups', '/api/users/organizations', '/api/users/fetchall/users']) {
      const response = await view.client.get(url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json(), url).toMatchObject({
        code: 'FORBIDDEN',
        message: 'You cannot view the product as another super admin.',
      });
    }
  });

  it('answers 404 for a person who is not a member of the organisation, removed, deleted or unknown', async () => {
    expect((await loginAs(superAdmin, { orgId: northgate, email: instructor.email })).statusCode).toBe(404);
    expect((await loginAs(superAdmin, { orgId: riverside, email: 'nobody@example.test' })).statusCode).toBe(404);
    expect((await loginAs(superAdmin, { orgId: 'unknownorg', email: instructor.email })).statusCode).toBe(404);
    const removed = await insertMember(t.db, riverside, { role: 'STUDENT' });
    await t.db.update(groupMember).set({ removedAt: new Date() }).where(eq(groupMember.userId, removed.id));
    expect((await loginAs(superAdmin, { orgId: riverside, email: removed.email })).statusCode).toBe(404);
    const deleted = await insertMember(t.db, riverside, { role: 'STUDENT' });
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, deleted.id));
    const response = await loginAs(superAdmin, { orgId: riverside, email: deleted.email });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
  });

  it.each([
    ['no body', undefined],
    ['no organisation', { email: 'a@example.test' }],
    ['no e-mail', { orgId: 'abc' }],
    ['a malformed e-mail', { orgId: 'abc', email: 'not-an-email' }],
    ['a malformed organisation id', { orgId: 'a b', email: 'a@example.test' }],
    ['a reason too long', { orgId: 'abc', email: 'a@example.test', reason: 'x'.repeat(501) }],
    ['a reason with NUL', { orgId: 'abc', email: 'a@example.test', reason: 'a\u0000b' }],
    ['a number for the e-mail', { orgId: 'abc', email: 42 }],
  ])('answers 400 for %s', async (_name, payload) => {
    const response = await loginAs(superAdmin, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });

  it('records the start with who, whom, where, why and until when', async () => {
    const view = await startView(student.email, 'Checking the assignment list the student reported');
    const events = await eventsOf('view-as.start', student.id);
    const event = events.find((row) => row.details?.sessionId === view.payload.sid);
    expect(event).toMatchObject({
      actorId: superAdmin.userId,
      onBehalfOfId: null,
      targetType: 'user',
      targetId: student.id,
      orgId: riverside,
      details: { reason: 'Checking the assignment list the student reported', sessionId: view.payload.sid },
    });
    expect(new Date(event?.details?.expiresAt as string).getTime() / 1000).toBeCloseTo(view.payload.exp, -1);
  });
});

describe('what a View-As-User token may change', () => {
  it("refuses declining or dismissing the person's invitations, changing their organisation and mailing them, and records nothing as theirs", async () => {
    const declined = buildInvitation({ orgId: northgate, email: instructor.email, role: 'USER' });
    const dismissed = buildInvitation({ orgId: northgate, email: instructor.email, role: 'USER' });
    await t.db.insert(invitation).values([declined, dismissed]);
    const view = await startView(instructor.email);
    const refused = [
      await view.client.post('/api/users/invitations/decline', { inviteId: declined.id }),
      await view.client.post(`/api/users/invites/dismiss/${dismissed.id}`),
      await view.client.post('/api/users/auth/changeOrg', { orgId: riverside }),
      await view.client.post('/api/users/jobs/verification-email', { user_id: instructor.id }),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({
        statusCode: 403,
        code: 'VIEW_AS_READ_ONLY',
        message: 'Nothing can be changed while viewing PatientSim as another user.',
      });
    }
    const invitations = await t.db.select().from(invitation).where(eq(invitation.email, instructor.email));
    expect(invitations.filter((row) => [declined.id, dismissed.id].includes(row.id)).map((row) => row.status)).toEqual([
      'pending',
      'pending',
    ]);
    const asThePerson = await t.db.select().from(auditEvent).where(eq(auditEvent.actorId, instructor.id));
    expect(asThePerson).toEqual([]);
  });

  it('reads through POST what the view shows: the pending invitations and GraphQL queries, never mutations', async () => {
    const view = await startView(instructor.email);
    const pending = await view.client.post('/api/users/invites/pending', { email: instructor.email });
    expect(pending.statusCode, pending.body).toBe(200);
    const gql = (query: string, operationName?: string) =>
      view.client.post('/api/graphql', { query, ...(operationName ? { operationName } : {}) });
    const read = await gql('{ caseConfigurations { totalCount } }');
    expect(read.statusCode, read.body).toBe(200);
    const favorite = await gql('mutation { addFavorite(id: "c1") { id } }');
    expect(favorite.statusCode).toBe(403);
    expect(favorite.json()).toEqual({
      data: null,
      errors: [
        {
          message: 'Nothing can be changed while viewing PatientSim as another user.',
          extensions: { code: 'VIEW_AS_READ_ONLY', statusCode: 403 },
        },
      ],
    });
    // One document, two operations: the one named decides.
    const both = 'query List { caseConfigurations { totalCount } } mutation Star { addFavorite(id: "c1") { id } }';
    expect((await gql(both, 'List')).statusCode).toBe(200);
    expect((await gql(both, 'Star')).json().errors[0].extensions.code).toBe('VIEW_AS_READ_ONLY');
  });
});

describe('POST /auth/loginAs/end', () => {
  it('ends the view: its token is refused at once, and the end is recorded with its reason', async () => {
    const view = await startView(instructor.email);
    expect((await view.client.get('/api/users/notifications')).statusCode).toBe(200);
    const end = await view.client.post('/api/users/auth/loginAs/end', { reason: 'Found the problem' });
    expect(end.statusCode).toBe(200);
    const after = await view.client.get('/api/users/notifications');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('SESSION_ENDED');
    expect((await view.client.post('/api/users/auth/loginAs/end', {})).statusCode).toBe(401);
    const ends = await eventsOf('view-as.end', instructor.id);
    expect(ends.find((row) => row.details?.sessionId === view.payload.sid)).toMatchObject({
      actorId: superAdmin.userId,
      orgId: riverside,
      details: { cause: 'ended', reason: 'Found the problem' },
    });
    // The super admin's own session is untouched.
    expect((await superAdmin.client.get('/api/users/audit-events')).statusCode).toBe(200);
  });

  it('records an end because the time is up', async () => {
    const view = await startView(instructor.email);
    expect((await view.client.post('/api/users/auth/loginAs/end', { expired: true })).statusCode).toBe(200);
    const ends = await eventsOf('view-as.end', instructor.id);
    expect(ends.find((row) => row.details?.sessionId === view.payload.sid)?.details).toEqual({
      sessionId: view.payload.sid,
      cause: 'expired',
    });
  });

  it('answers 404 to a token that is not a View-As-User one, and 400 to bad input', async () => {
    const own = await superAdmin.client.post('/api/users/auth/loginAs/end', {});
    expect(own.statusCode).toBe(404);
    const view = await startView(instructor.email);
    for (const payload of [undefined, { reason: 'x'.repeat(501) }, { expired: 'yes' }, { reason: 7 }]) {
      expect((await view.client.post('/api/users/auth/loginAs/end', payload)).statusCode).toBe(400);
    }
    expect((await createClient(t.app).post('/api/users/auth/loginAs/end', {})).statusCode).toBe(401);
  });
});

describe('a View-As-User session at its expiry', () => {
  it('is refused once its token expires, and is never renewed', async () => {
    const view = await startView(instructor.email);
    expect((await view.client.get('/api/users/notifications')).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: (view.payload.exp + 1) * 1000 });
    const response = await view.client.get('/api/users/notifications');
    expect(response.statusCode).toBe(401);
    // Renewal goes through a session cookie: the view has none, so there is nothing to renew.
    const renewal = await view.client.post('/api/users/auth/token');
    expect(renewal.statusCode).toBe(401);
  });

  it('ends when the super admin signs out of the session that started it, and only then', async () => {
    const [superAdminEmail] = (await t.db.select({ email: user.email }).from(user).where(eq(user.id, superAdmin.userId))).map(
      (row) => row.email,
    );
    const leaving = await signInAs(t, superAdminEmail ?? '', TEST_PASSWORD);
    const staying = await signInAs(t, superAdminEmail ?? '', TEST_PASSWORD);
    const ending = await startView(instructor.email, undefined, leaving);
    const lasting = await startView(instructor.email, undefined, staying);
    expect((await leaving.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    const response = await ending.client.get('/api/users/notifications');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('SESSION_ENDED');
    expect((await lasting.client.get('/api/users/notifications')).statusCode).toBe(200);
  });

  it('ends when the session that started it expires', async () => {
    const [superAdminEmail] = (await t.db.select({ email: user.email }).from(user).where(eq(user.id, superAdmin.userId))).map(
      (row) => row.email,
    );
    const expiring = await signInAs(t, superAdminEmail ?? '', TEST_PASSWORD);
    const view = await startView(instructor.email, undefined, expiring);
    expect((await view.client.get('/api/users/notifications')).statusCode).toBe(200);
    await t.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.id, expiring.payload.sid));
    t.app.cache.clear();
    const response = await view.client.get('/api/users/notifications');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('SESSION_ENDED');
  });

  it('is refused when the super admin’s sessions end (a password change, a deletion)', async () => {
    const view = await startView(instructor.email);
    await endUserSessions(t.app, [superAdmin.userId]);
    const response = await view.client.get('/api/users/notifications');
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('SESSION_ENDED');
  });
});
