import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@patientsim/domain/roles/roles';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { newId } from '../../lib/ids.js';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { signInAs } from '../../../test/sign-in-client.js';
import { addMember, insertGroup, insertUser } from '../../../test/fixtures.js';

const SEATS_TEXT = 'Invitations exceed open seats for your organization. Reduce invites or request more seats.';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let sequence = 0;
const freshEmail = (label = 'invitee') => `${label}-${++sequence}-${newId().slice(0, 6)}@example.test`;

/** An organisation with `seats` and a signed-in member of each asked role. */
async function organisation({ seats = 10, roles = ['ADMIN'] as Role[] } = {}) {
  const orgId = await insertGroup(t.db, { name: `Org ${newId().slice(0, 8)}`, seats });
  const members = {} as Record<Role, Awaited<ReturnType<typeof signInAs>>>;
  for (const role of roles) {
    const account = await insertUser(t.db, { role });
    await addMember(t.db, orgId, account.id, role);
    members[role] = await signInAs(t, account.email, account.password);
  }
  return { orgId, ...members };
}

async function superAdmin() {
  const account = await insertUser(t.db, { role: 'SUPER_ADMIN' });
  return signInAs(t, account.email, account.password);
}

const invite = (client: Awaited<ReturnType<typeof signInAs>>['client'], payload: unknown) =>
  client.post('/api/users/invitations/invite', payload);

function lastMailTo(email: string) {
  const message = [...t.outbox].reverse().find((m) => m.to === email);
  expect(message, `mail to ${email}`).toBeDefined();
  return message?.text ?? '';
}

/** The invitation link in the last mail to `email`. */
function linkTo(email: string) {
  const link = /https?:\/\/\S+\/auth\/(?:accept-invite|signup)\?\S+/.exec(lastMailTo(email))?.[0];
  expect(link).toBeDefined();
  return new URL(link ?? '');
}

const pendingCount = async (orgId: string) =>
  (
    await t.db
      .select()
      .from(invitation)
      .where(and(eq(invitation.orgId, orgId), eq(invitation.status, 'pending')))
  ).length;

const finishWithToken = (token: string, email: string) =>
  createClient(t.app).post('/api/users/invitations/finish', { email }, { authorization: `Bearer ${token}` });

describe('POST /invitations/invite', () => {
  it('invites a new address: a sign-up link (decision 8), and signing up through it joins the organisation', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const email = freshEmail();
    const response = await invite(admin.client, { users: [{ email, role: 'USER' }], throughSubscription: false, org: orgId });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ user: { email, hasAccount: false }, createdOrg: null, outcome: 'sent' }]);

    const link = linkTo(email);
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_PUBLIC_URL}/auth/signup`);
    expect(link.searchParams.get('email')).toBe(email);
    const token = link.searchParams.get('token') ?? '';
    const [stored] = await t.db.select().from(invitation).where(eq(invitation.email, email));
    expect(stored?.tokenHash).not.toBe(token);
    expect(stored?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);

    const signUp = await createClient(t.app).post('/api/users/auth/sign-up', {
      token,
      email,
      given_name: 'New',
      family_name: 'Person',
      password: 'Fresh-Pass-2026',
    });
    expect(signUp.statusCode).toBe(200);
    const [account] = await t.db.select().from(user).where(eq(user.email, email));
    const [membership] = await t.db
      .select()
      .from(groupMember)
      .where(and(eq(groupMember.groupId, orgId), eq(groupMember.userId, account?.id ?? '')));
    expect(membership?.role).toBe('USER');

    const [event] = await t.db
      .select()
      .from(auditEvent)
      .where(and(eq(auditEvent.action, 'invitation.create'), eq(auditEvent.targetId, stored?.id ?? '')));
    expect(event?.actorId).toBe(admin.userId);
  });

  it('invites an existing account: an accept link, and the token joins it to the organisation once', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const existing = await insertUser(t.db);
    const response = await invite(admin.client, { users: [{ email: existing.email }], org: orgId, throughSubscription: false });
    expect(response.json()[0]).toMatchObject({ user: { email: existing.email, hasAccount: true }, outcome: 'sent' });
    const link = linkTo(existing.email);
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_PUBLIC_URL}/auth/accept-invite`);
    expect(link.searchParams.has('email')).toBe(false);
    const token = link.searchParams.get('token') ?? '';
    expect((await finishWithToken(token, existing.email)).statusCode).toBe(200);
    const [membership] = await t.db
      .select()
      .from(groupMember)
      .where(and(eq(groupMember.groupId, orgId), eq(groupMember.userId, existing.id)));
    expect(membership?.role).toBe('STUDENT');
    // Single use.
    expect((await finishWithToken(token, existing.email)).statusCode).toBe(400);
  });

  it('invites 50 addresses in one request, each with its own mail', async () => {
    const { orgId, ADMIN: admin } = await organisation({ seats: 51 });
    const emails = Array.from({ length: 50 }, () => freshEmail('bulk'));
    const before = t.outbox.length;
    const response = await invite(admin.client, {
      users: emails.map((email) => ({ email, role: 'STUDENT' })),
      org: orgId,
      throughSubscription: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((r: { outcome: string }) => r.outcome)).toEqual(emails.map(() => 'sent'));
    expect(await pendingCount(orgId)).toBe(50);
    expect(t.outbox.length - before).toBe(50);
  });

  it('refuses 51 addresses as bad input', async () => {
    const { orgId, ADMIN: admin } = await organisation({ seats: 100 });
    const users = Array.from({ length: 51 }, () => ({ email: freshEmail('many') }));
    const response = await invite(admin.client, { users, org: orgId, throughSubscription: false });
    expect(response.statusCode).toBe(400);
    expect(await pendingCount(orgId)).toBe(0);
  });

  it('writes nothing when one row is invalid or repeated', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const before = t.outbox.length;
    const invalid = await invite(admin.client, {
      users: [{ email: freshEmail() }, { email: 'not-an-address' }],
      org: orgId,
      throughSubscription: false,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('VALIDATION_FAILED');
    const email = freshEmail();
    const repeated = await invite(admin.client, {
      users: [{ email }, { email: email.toUpperCase() }],
      org: orgId,
      throughSubscription: false,
    });
    expect(repeated.statusCode).toBe(400);
    expect(JSON.stringify(repeated.json())).toContain('Already in list');
    const unknownRole = await invite(admin.client, { users: [{ email, role: 'OWNER' }], org: orgId });
    expect(unknownRole.statusCode).toBe(400);
    expect(await pendingCount(orgId)).toBe(0);
    expect(t.outbox.length).toBe(before);
  });

  it('refuses invitations past the seats with the spec text, counting members and pending invitations', async () => {
    const { orgId, ADMIN: admin } = await organisation({ seats: 4 });
    // One member (the admin) + one pending = 2 of 4.
    await invite(admin.client, { users: [{ email: freshEmail() }], org: orgId, throughSubscription: false });
    const over = await invite(admin.client, {
      users: [{ email: freshEmail() }, { email: freshEmail() }, { email: freshEmail() }],
      org: orgId,
      throughSubscription: false,
    });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ statusCode: 422, code: 'SEATS_EXCEEDED', message: SEATS_TEXT });
    expect(await pendingCount(orgId)).toBe(1);
    const exact = await invite(admin.client, {
      users: [{ email: freshEmail() }, { email: freshEmail() }],
      org: orgId,
      throughSubscription: false,
    });
    expect(exact.statusCode).toBe(200);
    expect(await pendingCount(orgId)).toBe(3);
  });

  it('skips the seat check for subscribed invitations, which take no seat', async () => {
    const { orgId, ADMIN: admin } = await organisation({ seats: 0 });
    const email = freshEmail('subscribed');
    const response = await invite(admin.client, { users: [{ email }], org: orgId, throughSubscription: true });
    expect(response.statusCode).toBe(200);
    const [stored] = await t.db.select().from(invitation).where(eq(invitation.email, email));
    expect(stored?.throughSubscription).toBe(true);
  });

  it('lets exactly one of two concurrent invitations that together exceed the seats through', async () => {
    const { orgId, ADMIN: admin } = await organisation({ seats: 3 });
    const other = await insertUser(t.db, { role: 'ADMIN' });
    await addMember(t.db, orgId, other.id, 'ADMIN');
    const second = await signInAs(t, other.email, other.password);
    // 2 members; each request asks for 1 seat of the 1 left.
    const [a, b] = await Promise.all([
      invite(admin.client, { users: [{ email: freshEmail('race') }], org: orgId, throughSubscription: false }),
      invite(second.client, { users: [{ email: freshEmail('race') }], org: orgId, throughSubscription: false }),
    ]);
    expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 422]);
    expect(await pendingCount(orgId)).toBe(1);
  });

  it('reports members and re-sends pending invitations with a fresh link', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const member = await insertUser(t.db);
    await addMember(t.db, orgId, member.id, 'STUDENT');
    const email = freshEmail('again');
    await invite(admin.client, { users: [{ email }], org: orgId, throughSubscription: false });
    const firstToken = linkTo(email).searchParams.get('token') ?? '';
    const response = await invite(admin.client, {
      users: [{ email }, { email: member.email }],
      org: orgId,
      throughSubscription: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((r: { outcome: string }) => r.outcome)).toEqual(['resent', 'already-member']);
    expect(await pendingCount(orgId)).toBe(1);
    const secondToken = linkTo(email).searchParams.get('token') ?? '';
    expect(secondToken).not.toBe(firstToken);
    const describe = (token: string) => createClient(t.app).get(`/api/users/invitations/describe?token=${token}`);
    expect((await describe(firstToken)).statusCode).toBe(400);
    expect((await describe(secondToken)).statusCode).toBe(200);
  });

  it('refuses an address past its mail limit in its row, without failing the others', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const email = freshEmail('limited');
    for (let i = 0; i < 3; i += 1) await invite(admin.client, { users: [{ email }], org: orgId, throughSubscription: false });
    const other = freshEmail();
    const response = await invite(admin.client, { users: [{ email }, { email: other }], org: orgId, throughSubscription: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject([
      { user: { email }, outcome: 'refused' },
      { user: { email: other }, outcome: 'sent' },
    ]);
  });

  it('joins the invited sub-groups, and refuses a sub-group of another organisation', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const subgroup = await insertGroup(t.db, { name: `${orgId.slice(0, 4)}::Cohort`, parentId: orgId });
    const otherOrg = await insertGroup(t.db, { name: 'Elsewhere' });
    const foreign = await insertGroup(t.db, { name: `${otherOrg.slice(0, 4)}::Theirs`, parentId: otherOrg });
    const refused = await invite(admin.client, {
      users: [{ email: freshEmail() }],
      org: orgId,
      groupMembership: [foreign],
      throughSubscription: false,
    });
    expect(refused.statusCode).toBe(404);
    const existing = await insertUser(t.db);
    await invite(admin.client, { users: [{ email: existing.email }], org: orgId, groupMembership: [subgroup] });
    const token = linkTo(existing.email).searchParams.get('token') ?? '';
    expect((await finishWithToken(token, existing.email)).statusCode).toBe(200);
    const memberships = await t.db.select().from(groupMember).where(eq(groupMember.userId, existing.id));
    expect(memberships.map((m) => m.groupId).sort()).toEqual([orgId, subgroup].sort());
  });

  it('assigns roles only up to the inviter’s rank', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const above = await invite(admin.client, {
      users: [{ email: freshEmail() }, { email: freshEmail(), role: 'SUPER_ADMIN' }],
      org: orgId,
      throughSubscription: false,
    });
    expect(above.statusCode).toBe(403);
    expect(await pendingCount(orgId)).toBe(0);
    const same = await invite(admin.client, { users: [{ email: freshEmail(), role: 'ADMIN' }], org: orgId });
    expect(same.statusCode).toBe(200);
  });

  it('refuses instructors and students (403), another organisation’s admin (404), and a demoted admin', async () => {
    const {
      orgId,
      ADMIN: admin,
      USER: instructor,
      STUDENT: student,
    } = await organisation({ roles: ['ADMIN', 'USER', 'STUDENT'] });
    const body = { users: [{ email: freshEmail() }], org: orgId, throughSubscription: false };
    expect((await invite(instructor.client, body)).statusCode).toBe(403);
    expect((await invite(student.client, body)).statusCode).toBe(403);
    const { ADMIN: outsider } = await organisation();
    const other = await invite(outsider.client, body);
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('NOT_FOUND');
    await t.db.update(groupMember).set({ role: 'STUDENT' }).where(eq(groupMember.userId, admin.userId));
    await t.db.update(user).set({ role: 'STUDENT' }).where(eq(user.id, admin.userId));
    t.app.cache.clear();
    expect((await invite(admin.client, body)).statusCode).toBe(403);
    expect(await pendingCount(orgId)).toBe(0);
  });

  it('refuses invitations into an inactive organisation (422)', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    await t.db.update(group).set({ inactive: true }).where(eq(group.id, orgId));
    t.app.cache.clear();
    const response = await invite(admin.client, { users: [{ email: freshEmail() }], org: orgId, throughSubscription: false });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('ORGANIZATION_INACTIVE');
    expect(await pendingCount(orgId)).toBe(0);
  });

  it('creates a new organisation for a super admin only: seats 0, the first address its admin key owner', async () => {
    const owner = await insertUser(t.db);
    const second = freshEmail('new-org');
    const body = {
      users: [{ email: owner.email, role: 'STUDENT' }, { email: second }],
      org: { name: 'Brand New Ambulance', productType: 'NURSING' },
      throughSubscription: false,
    };
    const { ADMIN: admin } = await organisation();
    expect((await invite(admin.client, body)).statusCode).toBe(403);
    expect(await t.db.select().from(group).where(eq(group.name, 'Brand New Ambulance'))).toHaveLength(0);

    const provider = await superAdmin();
    const response = await invite(provider.client, body);
    // Seats 0 refuses the invitations themselves unless through a subscription.
    expect(response.statusCode).toBe(422);
    expect(await t.db.select().from(group).where(eq(group.name, 'Brand New Ambulance'))).toHaveLength(0);

    const created = await invite(provider.client, { ...body, throughSubscription: true });
    expect(created.statusCode).toBe(200);
    const results = created.json();
    const org = results[0].createdOrg;
    expect(org.name).toBe('Brand New Ambulance');
    expect(JSON.parse(org.description)).toMatchObject({ seats: 0, ownerId: owner.id, productType: 'NURSING' });
    expect(org.owner).toBe(owner.id);
    const [firstInvite] = await t.db.select().from(invitation).where(eq(invitation.email, owner.email));
    expect(firstInvite?.role).toBe('ADMIN');

    const withSeats = await invite(provider.client, {
      users: [{ email: freshEmail() }],
      org: { name: 'Seated Service', productType: 'EMS', seats: 5 },
    });
    expect(withSeats.statusCode).toBe(200);
    expect(JSON.parse(withSeats.json()[0].createdOrg.description)).toMatchObject({ seats: 5, ownerId: null });
  });

  it('refuses callers without a token', async () => {
    const response = await createClient(t.app).post('/api/users/invitations/invite', {
      users: [{ email: freshEmail() }],
      org: newId(),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('pending invitations of an organisation', () => {
  it('lists them for admins and instructors, not for students or another organisation', async () => {
    const {
      orgId,
      ADMIN: admin,
      USER: instructor,
      STUDENT: student,
    } = await organisation({ roles: ['ADMIN', 'USER', 'STUDENT'] });
    const email = freshEmail('listed');
    await invite(admin.client, { users: [{ email, role: 'USER' }], org: orgId, throughSubscription: false });
    for (const reader of [admin, instructor]) {
      const response = await reader.client.get(`/api/users/invites/org/${orgId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().invites).toEqual([expect.objectContaining({ email, role: 'USER', org_id: orgId, user_id: null })]);
    }
    expect((await student.client.get(`/api/users/invites/org/${orgId}`)).statusCode).toBe(403);
    const { ADMIN: outsider } = await organisation();
    expect((await outsider.client.get(`/api/users/invites/org/${orgId}`)).statusCode).toBe(404);
  });

  it('revokes one: its link stops working, and it is audited', async () => {
    const { orgId, ADMIN: admin, USER: instructor } = await organisation({ roles: ['ADMIN', 'USER'] });
    const existing = await insertUser(t.db);
    await invite(admin.client, { users: [{ email: existing.email }], org: orgId, throughSubscription: false });
    const token = linkTo(existing.email).searchParams.get('token') ?? '';
    const url = `/api/users/invites/org/${orgId}?email=${encodeURIComponent(existing.email)}`;
    expect((await instructor.client.request({ method: 'DELETE', url })).statusCode).toBe(403);
    const { ADMIN: outsider } = await organisation();
    expect((await outsider.client.request({ method: 'DELETE', url })).statusCode).toBe(404);
    expect((await admin.client.request({ method: 'DELETE', url })).statusCode).toBe(200);
    expect((await finishWithToken(token, existing.email)).statusCode).toBe(400);
    expect((await admin.client.get(`/api/users/invites/org/${orgId}`)).json().invites).toEqual([]);
    expect((await admin.client.request({ method: 'DELETE', url })).statusCode).toBe(404);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.action, 'invitation.revoke'));
    expect(events.some((e) => e.orgId === orgId && e.actorId === admin.userId)).toBe(true);
    const bad = await admin.client.request({ method: 'DELETE', url: `/api/users/invites/org/${orgId}?email=nope` });
    expect(bad.statusCode).toBe(400);
  });

  it('resends one with a new link; the old one is dead', async () => {
    const { orgId, ADMIN: admin } = await organisation();
    const existing = await insertUser(t.db);
    await invite(admin.client, { users: [{ email: existing.email }], org: orgId, throughSubscription: false });
    const oldToken = linkTo(existing.email).searchParams.get('token') ?? '';
    const url = `/api/users/invites/org/${orgId}/resend?email=${encodeURIComponent(existing.email)}`;
    expect((await admin.client.request({ method: 'POST', url })).statusCode).toBe(200);
    const newToken = linkTo(existing.email).searchParams.get('token') ?? '';
    expect(newToken).not.toBe(oldToken);
    expect((await finishWithToken(oldToken, existing.email)).statusCode).toBe(400);
    expect((await finishWithToken(newToken, existing.email)).statusCode).toBe(200);
    // Accepted: nothing left to resend.
    expect((await admin.client.request({ method: 'POST', url })).statusCode).toBe(404);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.action, 'invitation.resend'));
    expect(events.some((e) => e.orgId === orgId)).toBe(true);
  });
});
