import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvent } from '../src/db/schema/audit.js';
import { session, user } from '../src/db/schema/auth.js';
import { group, groupMember } from '../src/db/schema/groups.js';
import { invitation } from '../src/db/schema/invitations.js';
import { hashToken, newId, newToken } from '../src/lib/ids.js';
import { LIMITS } from '../src/lib/limits.js';
import { buildTestApp, type TestApp } from './build-app.js';
import { createClient } from './client.js';
import { signInAs } from './sign-in-client.js';
import { addMember, findUser, insertGroup, insertMember, insertUser, TEST_PASSWORD } from './fixtures.js';

/**
 * Regression tests for the account-takeover paths found in review: each failed before the fix.
 * Every test builds its own accounts and organisations.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const uniqueEmail = (label: string) => `${label}-${newId()}@example.test`;

async function newOrganisation() {
  const orgId = await insertGroup(t.db, { name: `Org ${newId()}`, seats: 10 });
  const admin = await insertUser(t.db, { email: uniqueEmail('admin'), role: 'ADMIN' });
  await addMember(t.db, orgId, admin.id, 'ADMIN');
  return { orgId, admin };
}

async function invite(orgId: string, email: string, role: 'STUDENT' | 'USER' = 'USER') {
  const token = newToken();
  const id = newId();
  await t.db.insert(invitation).values({
    id,
    orgId,
    email,
    role,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { id, token };
}

/** The last mail to `to` whose text matches `pattern` (sending is not awaited by the server). */
function waitForMail(to: string, pattern: RegExp) {
  return vi.waitFor(() => {
    const found = [...t.outbox].reverse().find((m) => m.to === to && pattern.test(m.text));
    if (!found) throw new Error(`no mail to ${to} matching ${pattern}`);
    return found;
  });
}

const linkIn = (text: string, path: string) => {
  const match = new RegExp(`https?://[^\\s]*${path.replace(/[/?]/g, '\\$&')}[^\\s]*`).exec(text);
  if (!match) throw new Error(`no ${path} link`);
  return new URL(match[0]);
};

async function changeEmail(client: ReturnType<typeof createClient>, userId: string, email: string, currentPassword?: string) {
  return client.request({
    method: 'PATCH',
    url: `/api/users/users/${userId}`,
    payload: { email, ...(currentPassword === undefined ? {} : { currentPassword }) },
  });
}

async function isMember(orgId: string, userId: string) {
  const rows = await t.db
    .select()
    .from(groupMember)
    .where(and(eq(groupMember.groupId, orgId), eq(groupMember.userId, userId), isNull(groupMember.removedAt)));
  return rows.length > 0;
}

describe('invitation hijack through an unverified e-mail change', () => {
  it('an unverified address grants nothing, and the real invitee wins the address by signing up', async () => {
    const { orgId } = await newOrganisation();
    const inviteeEmail = uniqueEmail('invitee');
    const pending = await invite(orgId, inviteeEmail);
    const attackerEmail = uniqueEmail('attacker');
    const attacker = await insertUser(t.db, { email: attackerEmail });
    const signedIn = await signInAs(t, attackerEmail, TEST_PASSWORD);

    const changed = await changeEmail(signedIn.client, attacker.id, inviteeEmail, TEST_PASSWORD);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ email: inviteeEmail, email_verified: false, emailChanged: true });

    // Signed in with the unverified address, the attacker reaches only their own account.
    const claimed = await signInAs(t, inviteeEmail, TEST_PASSWORD);
    expect(claimed.payload.email_verified).toBe(false);
    const finish = await claimed.client.post('/api/users/invitations/finish-invite', {
      inviteId: pending.id,
      email: inviteeEmail,
    });
    expect(finish.statusCode).toBe(403);
    expect(finish.json().code).toBe('EMAIL_NOT_VERIFIED');
    expect(await isMember(orgId, attacker.id)).toBe(false);
    const listed = await claimed.client.post('/api/users/invites/pending', { email: inviteeEmail });
    expect(listed.json().code).toBe('EMAIL_NOT_VERIFIED');
    expect((await claimed.client.get('/api/users/notifications/pending')).json().code).toBe('EMAIL_NOT_VERIFIED');
    // ...its own account, its groups and a new verification e-mail stay reachable.
    expect((await claimed.client.get(`/api/users/extension/users/${attacker.id}/groups`)).statusCode).toBe(200);
    expect((await claimed.client.post('/api/users/jobs/verification-email', { user_id: attacker.id })).statusCode).toBe(200);
    const rename = await claimed.client.request({
      method: 'PATCH',
      url: `/api/users/users/${attacker.id}`,
      payload: { given_name: 'Still Me' },
    });
    expect(rename.statusCode).toBe(200);

    // The invitation link does not treat the unverified claim as the invitee's account.
    const described = await t.app.inject({ method: 'GET', url: `/api/users/invitations/describe?token=${pending.token}` });
    expect(described.json().hasAccount).toBe(false);
    const viaLink = await t.app.inject({
      method: 'POST',
      url: '/api/users/invitations/finish',
      headers: { authorization: `Bearer ${pending.token}` },
      payload: { email: inviteeEmail },
    });
    expect(viaLink.statusCode).toBe(400);
    expect(await isMember(orgId, attacker.id)).toBe(false);

    // The real invitee follows the link and signs up: they win the address.
    const invitee = createClient(t.app, { ip: '10.91.0.1' });
    const signUp = await invitee.post('/api/users/auth/sign-up', {
      token: pending.token,
      email: inviteeEmail,
      given_name: 'Real',
      family_name: 'Invitee',
      password: 'Real-Invitee-2026',
    });
    expect(signUp.statusCode).toBe(200);
    expect(await isMember(orgId, signUp.json().user.id)).toBe(true);
    // The attacker's account goes back to the address it proved, and its sessions end.
    const reverted = await findUser(t.db, attacker.id);
    expect(reverted).toMatchObject({ email: attackerEmail, emailVerified: true, previousEmail: null });
    expect((await claimed.client.get(`/api/users/extension/users/${attacker.id}/groups`)).json().code).toBe('SESSION_ENDED');
    expect(
      (
        await createClient(t.app, { ip: '10.91.0.2' }).post('/api/users/auth/sign-in', {
          email: attackerEmail,
          password: TEST_PASSWORD,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('a verification link mailed to the new address proves it for that account only, and the prover wins', async () => {
    const target = uniqueEmail('target');
    const first = await insertUser(t.db, { email: uniqueEmail('first') });
    const second = await insertUser(t.db, { email: uniqueEmail('second') });
    const firstSession = await signInAs(t, first.email, TEST_PASSWORD);
    expect((await changeEmail(firstSession.client, first.id, target, TEST_PASSWORD)).statusCode).toBe(200);
    const firstLink = linkIn((await waitForMail(target, /verify-email/)).text, '/api/auth/verify-email');

    // A second account claims the same address: the first, unverified, claim does not block it.
    const secondSession = await signInAs(t, second.email, TEST_PASSWORD);
    expect((await changeEmail(secondSession.client, second.id, target, TEST_PASSWORD)).statusCode).toBe(200);
    expect(await findUser(t.db, second.id)).toMatchObject({ email: target, emailVerified: false });
    expect(await findUser(t.db, first.id)).toMatchObject({ email: first.email, emailVerified: true });

    // The first account's link (bound to it) wins the address back; the second goes back to its own.
    const followed = await t.app.inject({ method: 'GET', url: `${firstLink.pathname}${firstLink.search}` });
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe('/auth/emailVerified');
    expect(await findUser(t.db, first.id)).toMatchObject({ email: target, emailVerified: true, previousEmail: null });
    expect(await findUser(t.db, second.id)).toMatchObject({ email: second.email, emailVerified: true });
    const relogin = await signInAs(t, target, TEST_PASSWORD);
    expect(relogin.userId).toBe(first.id);
    expect(relogin.payload.email_verified).toBe(true);

    // A forged or stale link is refused without changing anything.
    const forged = await t.app.inject({ method: 'GET', url: '/api/auth/verify-email?token=not-a-token' });
    expect(forged.headers.location).toBe('/auth/emailVerified?error=verification_token_invalid');
    const replayed = await t.app.inject({ method: 'GET', url: `${firstLink.pathname}${firstLink.search}` });
    expect(replayed.headers.location).toBe('/auth/emailVerified');
  });
});

describe('e-mail change', () => {
  it('answers the same whether or not the address belongs to another account', async () => {
    const owner = await insertUser(t.db, { email: uniqueEmail('owner') });
    const mover = await insertUser(t.db, { email: uniqueEmail('mover'), givenName: 'Mo', familyName: 'Ver' });
    const free = uniqueEmail('free');

    const first = await signInAs(t, mover.email, TEST_PASSWORD);
    const taken = await changeEmail(first.client, mover.id, owner.email, TEST_PASSWORD);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({
      user_id: mover.id,
      email: owner.email,
      email_verified: false,
      given_name: 'Mo',
      family_name: 'Ver',
      emailChanged: true,
    });
    // Nothing moved: the owner keeps the address and hears of the attempt; the mover's sessions end.
    expect(await findUser(t.db, mover.id)).toMatchObject({ email: mover.email, emailVerified: true });
    expect(await findUser(t.db, owner.id)).toMatchObject({ email: owner.email, emailVerified: true });
    await waitForMail(owner.email, /already belongs to your account/);
    expect((await first.client.get('/api/users/notifications/pending')).json().code).toBe('SESSION_ENDED');

    const second = await signInAs(t, mover.email, TEST_PASSWORD);
    const freeAnswer = await changeEmail(second.client, mover.id, free, TEST_PASSWORD);
    expect(freeAnswer.statusCode).toBe(200);
    expect(freeAnswer.json()).toEqual({ ...taken.json(), email: free });
  });

  it('needs the current password, tells the old address, and limits the mails to the new one', async () => {
    const victim = await insertUser(t.db, { email: uniqueEmail('victim') });
    const signedIn = await signInAs(t, victim.email, TEST_PASSWORD);
    // A stolen bearer token alone: no cookie, no password.
    const thief = createClient(t.app, { ip: '10.92.0.1' });
    thief.setBearer(signedIn.idToken);
    const takeover = uniqueEmail('thief');

    const noPassword = await changeEmail(thief, victim.id, takeover);
    expect(noPassword.statusCode).toBe(400);
    const wrong = await changeEmail(thief, victim.id, takeover, 'Guess-Pass-2026');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('CURRENT_PASSWORD_WRONG');
    let last = wrong;
    for (let attempt = 0; attempt < 6; attempt += 1)
      last = await changeEmail(thief, victim.id, takeover, `Guess-Pass-${attempt}`);
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
    expect(await findUser(t.db, victim.id)).toMatchObject({ email: victim.email, emailVerified: true });

    // The owner with the password: the old address is told.
    const newEmail = uniqueEmail('moved');
    const owner = await signInAs(t, victim.email, TEST_PASSWORD);
    await t.app.limiter.reset(victim.id, LIMITS.passwordCheck);
    expect((await changeEmail(owner.client, victim.id, newEmail, TEST_PASSWORD)).statusCode).toBe(200);
    const notice = await waitForMail(victim.email, /change its email address to/);
    expect(notice.text).toContain(newEmail);
  });

  it('keeps verification mails to one address under the per-address limit', async () => {
    const target = uniqueEmail('flooded');
    const movers = await Promise.all([0, 1, 2, 3].map(() => insertUser(t.db, { email: uniqueEmail('mover') })));
    const answers = [];
    for (const mover of movers) {
      const signedIn = await signInAs(t, mover.email, TEST_PASSWORD);
      answers.push((await changeEmail(signedIn.client, mover.id, target, TEST_PASSWORD)).statusCode);
    }
    expect(answers).toEqual([200, 200, 200, 429]);
  });
});

describe('password reset goes to a proven address only', () => {
  it('sends nothing to an unverified new address; the old address resets and recovers the account', async () => {
    const person = await insertUser(t.db, { email: uniqueEmail('reset') });
    const signedIn = await signInAs(t, person.email, TEST_PASSWORD);
    const unverified = uniqueEmail('unverified');
    expect((await changeEmail(signedIn.client, person.id, unverified, TEST_PASSWORD)).statusCode).toBe(200);

    const anon = createClient(t.app, { ip: '10.93.0.1' });
    expect((await anon.post('/api/users/auth/request-password-reset', { email: unverified })).statusCode).toBe(200);
    expect((await anon.post('/api/users/auth/request-password-reset', { email: person.email })).statusCode).toBe(200);
    const mail = await waitForMail(person.email, /reset-password\?token=/);
    expect(t.outbox.some((m) => m.to === unverified && /reset-password/.test(m.text))).toBe(false);

    const token = linkIn(mail.text, '/auth/reset-password').searchParams.get('token') ?? '';
    const reset = await anon.post('/api/users/auth/reset-password', { token, newPassword: 'Recovered-Pass-2026' });
    expect(reset.statusCode).toBe(200);
    expect(await findUser(t.db, person.id)).toMatchObject({ email: person.email, emailVerified: true, previousEmail: null });
    expect((await signInAs(t, person.email, 'Recovered-Pass-2026')).payload.email_verified).toBe(true);
  });
});

describe('tokens die with their session', () => {
  it('names its session and is refused after sign-out', async () => {
    const person = await insertUser(t.db, { email: uniqueEmail('signout') });
    const signedIn = await signInAs(t, person.email, TEST_PASSWORD);
    const [row] = await t.db.select().from(session).where(eq(session.userId, person.id));
    expect(signedIn.payload.sid).toBe(row?.id);
    expect((await signInAs(t, person.email, TEST_PASSWORD)).payload.sid).not.toBe(row?.id);
    expect((await signedIn.client.get('/api/users/notifications/pending')).statusCode).toBe(200);
    expect((await signedIn.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    const after = await signedIn.client.get('/api/users/notifications/pending');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('SESSION_ENDED');
  });

  it('is refused after a password change and after a reset', async () => {
    const person = await insertUser(t.db, { email: uniqueEmail('password') });
    const elsewhere = await signInAs(t, person.email, TEST_PASSWORD);
    const here = await signInAs(t, person.email, TEST_PASSWORD);
    const changed = await here.client.post('/api/users/account/change-password', {
      oldPassword: TEST_PASSWORD,
      newPassword: 'Changed-Pass-2026',
    });
    expect(changed.statusCode).toBe(200);
    expect((await elsewhere.client.get('/api/users/notifications/pending')).statusCode).toBe(401);
    expect((await here.client.get('/api/users/notifications/pending')).statusCode).toBe(401);
    // The session cookie that made the change was renewed: a new token works.
    const renewed = await here.client.post('/api/users/auth/token');
    expect(renewed.statusCode).toBe(200);
    here.client.setBearer(renewed.json().idToken);
    expect((await here.client.get('/api/users/notifications/pending')).statusCode).toBe(200);

    const anon = createClient(t.app, { ip: '10.94.0.1' });
    await anon.post('/api/users/auth/request-password-reset', { email: person.email });
    const token = linkIn(
      (await waitForMail(person.email, /reset-password\?token=/)).text,
      '/auth/reset-password',
    ).searchParams.get('token');
    expect((await anon.post('/api/users/auth/reset-password', { token, newPassword: 'Reset-Pass-2026' })).statusCode).toBe(200);
    expect((await here.client.get('/api/users/notifications/pending')).json().code).toBe('SESSION_ENDED');
  });

  it('of a removed admin is refused: the removed admin cannot remove anyone', async () => {
    const { orgId, admin } = await newOrganisation();
    const other = await insertUser(t.db, { email: uniqueEmail('other-admin'), role: 'ADMIN' });
    await addMember(t.db, orgId, other.id, 'ADMIN');
    const member = await insertUser(t.db, { email: uniqueEmail('member') });
    await addMember(t.db, orgId, member.id, 'STUDENT');
    const removedAdmin = await signInAs(t, other.email, TEST_PASSWORD);
    const firstAdmin = await signInAs(t, admin.email, TEST_PASSWORD);

    const removal = await firstAdmin.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [other.id],
    });
    expect(removal.statusCode).toBe(200);
    const attempt = await removedAdmin.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [member.id],
    });
    expect(attempt.statusCode).toBe(401);
    expect(attempt.json().code).toBe('SESSION_ENDED');
    expect(await isMember(orgId, member.id)).toBe(true);
  });

  it('of a demoted admin carries the current role, not the one in the token', async () => {
    const { orgId, admin } = await newOrganisation();
    const member = await insertUser(t.db, { email: uniqueEmail('member') });
    await addMember(t.db, orgId, member.id, 'STUDENT');
    const signedIn = await signInAs(t, admin.email, TEST_PASSWORD);
    expect(signedIn.payload.role).toBe('ADMIN');
    await t.db
      .update(groupMember)
      .set({ role: 'STUDENT' })
      .where(and(eq(groupMember.groupId, orgId), eq(groupMember.userId, admin.id)));
    await t.db.update(user).set({ role: 'STUDENT' }).where(eq(user.id, admin.id));
    t.app.cache.clear();
    const attempt = await signedIn.client.request({
      method: 'DELETE',
      url: `/api/users/extension/groups/${orgId}/members`,
      payload: [member.id],
    });
    expect(attempt.statusCode).toBe(403);
    expect(await isMember(orgId, member.id)).toBe(true);
  });

  it('of a deleted account is refused', async () => {
    const person = await insertUser(t.db, { email: uniqueEmail('deleted') });
    const signedIn = await signInAs(t, person.email, TEST_PASSWORD);
    await t.db.update(user).set({ deletedAt: new Date() }).where(eq(user.id, person.id));
    t.app.cache.clear();
    expect((await signedIn.client.get('/api/users/notifications/pending')).statusCode).toBe(401);
  });

  it('is refused once the session is past its absolute lifetime, however often it was renewed', async () => {
    const person = await insertUser(t.db, { email: uniqueEmail('old-session') });
    const signedIn = await signInAs(t, person.email, TEST_PASSWORD);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Renewed every six days, the session slides past its 7-day expiry but not past 30 days.
      const answers: number[] = [];
      // Days 6, 12, 18, 24, 29 and 31 after signing in.
      for (const days of [6, 6, 6, 6, 5, 2]) {
        vi.setSystemTime(Date.now() + days * 86_400_000);
        // The read cache keeps to the real clock: days passed, nothing of it would be left.
        t.app.cache.clear();
        const renewal = await signedIn.client.post('/api/users/auth/token');
        answers.push(renewal.statusCode);
        if (renewal.statusCode === 200) signedIn.client.setBearer(renewal.json().idToken);
      }
      expect(answers).toEqual([200, 200, 200, 200, 200, 401]);
      expect((await signedIn.client.get('/api/users/notifications/pending')).statusCode).toBe(401);
      expect(await t.db.select().from(session).where(eq(session.userId, person.id))).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('organisation-side e-mail edit', () => {
  type Session = Awaited<ReturnType<typeof signInAs>>;
  const orgEdit = (session: Session, userId: string, orgId: string, payload: object) =>
    session.client.request({ method: 'PATCH', url: `/api/users/users/${userId}?orgId=${orgId}`, payload });
  const reclaim = (token: string) => createClient(t.app, { ip: '10.95.0.1' }).post('/api/users/account/reclaim-email', { token });
  const tokenOf = (text: string) => linkIn(text, '/auth/reclaim-email').searchParams.get('token') ?? '';
  const mailsTo = (address: string) => t.outbox.filter((mail) => mail.to === address).length;

  /** An organisation with its admin signed in, and a student who belongs to it alone. */
  async function organisationWithStudent() {
    const { orgId, admin } = await newOrganisation();
    await t.db.update(user).set({ givenName: 'Ada', familyName: 'Admin' }).where(eq(user.id, admin.id));
    const student = await insertMember(t.db, orgId, { role: 'STUDENT', email: uniqueEmail('student') });
    const adminSession = await signInAs(t, admin.email, TEST_PASSWORD);
    const [org] = await t.db.select().from(group).where(eq(group.id, orgId));
    return { orgId, orgName: org?.name ?? '', admin, adminSession, student };
  }

  async function expectLocked(response: Awaited<ReturnType<typeof orgEdit>>, member: { id: string; email: string }) {
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('MEMBER_EMAIL_LOCKED');
    expect(await findUser(t.db, member.id)).toMatchObject({ email: member.email, emailVerified: true, previousEmail: null });
  }

  it('cannot move a fellow instructor who also belongs to another organisation, nor rename them in the same request', async () => {
    const { orgId, adminSession } = await organisationWithStudent();
    const other = await newOrganisation();
    const instructor = await insertMember(t.db, orgId, { role: 'USER' });
    const fellow = await insertMember(t.db, orgId, { role: 'USER', email: uniqueEmail('fellow') });
    await addMember(t.db, other.orgId, fellow.id, 'USER');
    const attackerEmail = uniqueEmail('attacker');

    const byInstructor = await orgEdit(await signInAs(t, instructor.email, TEST_PASSWORD), fellow.id, orgId, {
      email: attackerEmail,
      given_name: 'Renamed',
    });
    await expectLocked(byInstructor, fellow);
    expect((await findUser(t.db, fellow.id))?.givenName).toBe('Test');
    // An admin ranks above the instructor, but the account is not this organisation's alone.
    await expectLocked(await orgEdit(adminSession, fellow.id, orgId, { email: attackerEmail }), fellow);
    expect(mailsTo(attackerEmail)).toBe(0);
    // Names alone keep their rules.
    expect((await orgEdit(adminSession, fellow.id, orgId, { given_name: 'Renamed' })).statusCode).toBe(200);
  });

  it("cannot move the organisation's key owner, neither by another admin nor by the provider", async () => {
    const { orgId, admin } = await newOrganisation();
    await t.db.update(group).set({ ownerId: admin.id }).where(eq(group.id, orgId));
    const otherAdmin = await insertMember(t.db, orgId, { role: 'ADMIN' });
    const superAdmin = await insertUser(t.db, { role: 'SUPER_ADMIN' });
    for (const actor of [otherAdmin, superAdmin]) {
      const session = await signInAs(t, actor.email, TEST_PASSWORD);
      await expectLocked(await orgEdit(session, admin.id, orgId, { email: uniqueEmail('attacker') }), admin);
    }
  });

  it("cannot move another organisation's key owner who is a student here", async () => {
    const { orgId, adminSession } = await organisationWithStudent();
    const owner = await insertUser(t.db, { role: 'ADMIN', email: uniqueEmail('owner') });
    // Key owner of the other organisation without a membership there: only the key ownership refuses.
    await insertGroup(t.db, { name: `Owned ${newId()}`, ownerId: owner.id });
    await addMember(t.db, orgId, owner.id, 'STUDENT');
    await expectLocked(await orgEdit(adminSession, owner.id, orgId, { email: uniqueEmail('attacker') }), owner);
  });

  it('cannot move a super admin who joined the organisation as a student', async () => {
    const { orgId, adminSession } = await organisationWithStudent();
    const provider = await insertUser(t.db, { role: 'SUPER_ADMIN', email: uniqueEmail('super') });
    await addMember(t.db, orgId, provider.id, 'STUDENT');
    await expectLocked(await orgEdit(adminSession, provider.id, orgId, { email: uniqueEmail('attacker') }), provider);
  });

  it('cannot move a member of equal rank', async () => {
    const { orgId, adminSession } = await organisationWithStudent();
    const peer = await insertMember(t.db, orgId, { role: 'ADMIN', email: uniqueEmail('peer') });
    await expectLocked(await orgEdit(adminSession, peer.id, orgId, { email: uniqueEmail('attacker') }), peer);
  });

  it('tells the old address truthfully, and its link takes the account back after the new address was verified', async () => {
    const { orgId, orgName, admin, adminSession, student } = await organisationWithStudent();
    const studentSession = await signInAs(t, student.email, TEST_PASSWORD);
    const attackerEmail = uniqueEmail('attacker');
    expect((await orgEdit(adminSession, student.id, orgId, { email: attackerEmail })).statusCode).toBe(200);

    const notice = await waitForMail(student.email, /reclaim-email/);
    expect(notice.text).toContain(`An admin of ${orgName}, Ada Admin (${admin.email}), changed the email address`);
    expect(notice.text).toContain(attackerEmail);
    expect(notice.text).toContain("This wasn't me");
    expect(notice.text).not.toContain('with its password');
    // The attacker proves the new address and signs in there.
    const verify = linkIn((await waitForMail(attackerEmail, /verify-email/)).text, '/api/auth/verify-email');
    await t.app.inject({ method: 'GET', url: `${verify.pathname}${verify.search}` });
    expect(await findUser(t.db, student.id)).toMatchObject({ email: attackerEmail, emailVerified: true, previousEmail: null });
    const attacker = await signInAs(t, attackerEmail, TEST_PASSWORD);

    const taken = await reclaim(tokenOf(notice.text));
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ email: student.email, resetToken: expect.any(String) });
    expect(await findUser(t.db, student.id)).toMatchObject({ email: student.email, emailVerified: true, previousEmail: null });
    for (const ended of [attacker, studentSession]) {
      expect((await ended.client.get('/api/users/notifications/pending')).json().code).toBe('SESSION_ENDED');
    }
    // The answer leads to a new password through the reset path.
    const anon = createClient(t.app, { ip: '10.95.0.2' });
    const reset = await anon.post('/api/users/auth/reset-password', {
      token: taken.json().resetToken,
      newPassword: 'Taken-Back-2026',
    });
    expect(reset.statusCode).toBe(200);
    expect((await signInAs(t, student.email, 'Taken-Back-2026')).userId).toBe(student.id);

    // Single use; and the new address's verification link cannot move the account again.
    const again = await reclaim(tokenOf(notice.text));
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('RECLAIM_TOKEN_INVALID');
    await t.app.inject({ method: 'GET', url: `${verify.pathname}${verify.search}` });
    expect(await findUser(t.db, student.id)).toMatchObject({ email: student.email, emailVerified: true });
  });

  it('mails a reset for the old address to it after the new address was verified, and it takes the account back', async () => {
    const { orgId, adminSession, student } = await organisationWithStudent();
    const attackerEmail = uniqueEmail('attacker');
    expect((await orgEdit(adminSession, student.id, orgId, { email: attackerEmail })).statusCode).toBe(200);
    const verify = linkIn((await waitForMail(attackerEmail, /verify-email/)).text, '/api/auth/verify-email');
    await t.app.inject({ method: 'GET', url: `${verify.pathname}${verify.search}` });
    const attackerMails = mailsTo(attackerEmail);

    const anon = createClient(t.app, { ip: '10.95.0.3' });
    const requestedAt = t.outbox.length;
    expect((await anon.post('/api/users/auth/request-password-reset', { email: student.email })).statusCode).toBe(200);
    const mail = await vi.waitFor(() => {
      const found = t.outbox.slice(requestedAt).find((m) => m.to === student.email);
      if (!found) throw new Error('no reset mail to the old address');
      return found;
    });
    expect(mail.subject).toBe('Reset your PatientSim password');
    expect(mailsTo(attackerEmail)).toBe(attackerMails);

    const taken = await reclaim(tokenOf(mail.text));
    expect(taken.statusCode).toBe(200);
    expect(await findUser(t.db, student.id)).toMatchObject({ email: student.email, emailVerified: true });
  });

  it("a reset from the old address before the new one is verified keeps the new address's link from moving it again", async () => {
    const { orgId, adminSession, student } = await organisationWithStudent();
    const attackerEmail = uniqueEmail('attacker');
    expect((await orgEdit(adminSession, student.id, orgId, { email: attackerEmail })).statusCode).toBe(200);
    const verify = linkIn((await waitForMail(attackerEmail, /verify-email/)).text, '/api/auth/verify-email');

    const anon = createClient(t.app, { ip: '10.95.0.5' });
    await anon.post('/api/users/auth/request-password-reset', { email: student.email });
    const token = linkIn(
      (await waitForMail(student.email, /reset-password\?token=/)).text,
      '/auth/reset-password',
    ).searchParams.get('token');
    expect((await anon.post('/api/users/auth/reset-password', { token, newPassword: 'Reset-Back-2026' })).statusCode).toBe(200);
    expect(await findUser(t.db, student.id)).toMatchObject({ email: student.email, emailVerified: true });

    await t.app.inject({ method: 'GET', url: `${verify.pathname}${verify.search}` });
    expect(await findUser(t.db, student.id)).toMatchObject({ email: student.email, emailVerified: true });
  });

  it('keeps the old address in power for 30 days, not longer', async () => {
    const { orgId, adminSession, student } = await organisationWithStudent();
    const attackerEmail = uniqueEmail('attacker');
    expect((await orgEdit(adminSession, student.id, orgId, { email: attackerEmail })).statusCode).toBe(200);
    const notice = await waitForMail(student.email, /reclaim-email/);
    const verify = linkIn((await waitForMail(attackerEmail, /verify-email/)).text, '/api/auth/verify-email');
    await t.app.inject({ method: 'GET', url: `${verify.pathname}${verify.search}` });
    const anon = createClient(t.app, { ip: '10.95.0.4' });

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 29 * 86_400_000);
      const before = mailsTo(student.email);
      await anon.post('/api/users/auth/request-password-reset', { email: student.email });
      expect(mailsTo(student.email)).toBe(before + 1);

      vi.setSystemTime(Date.now() + 2 * 86_400_000);
      const late = await reclaim(tokenOf(notice.text));
      expect(late.statusCode).toBe(400);
      expect(late.json().code).toBe('RECLAIM_TOKEN_INVALID');
      await anon.post('/api/users/auth/request-password-reset', { email: student.email });
      expect(mailsTo(student.email)).toBe(before + 1);
      expect(await findUser(t.db, student.id)).toMatchObject({ email: attackerEmail, emailVerified: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it('is in the audit trail of every organisation the account belongs to, and so is taking it back', async () => {
    const { orgId, adminSession, student } = await organisationWithStudent();
    expect((await orgEdit(adminSession, student.id, orgId, { email: uniqueEmail('moved') })).statusCode).toBe(200);
    const notice = await waitForMail(student.email, /reclaim-email/);
    const later = await newOrganisation();
    await addMember(t.db, later.orgId, student.id, 'STUDENT');
    expect((await reclaim(tokenOf(notice.text))).statusCode).toBe(200);

    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.targetId, student.id));
    const trail = (action: string) => events.filter((event) => event.action === action).map((event) => event.orgId);
    expect(trail('org.user.update')).toEqual([orgId]);
    expect(trail('user.reclaim-email').sort()).toEqual([orgId, later.orgId].sort());
  });

  it('counts its mails toward the per-address limits', async () => {
    const { orgId, adminSession } = await organisationWithStudent();
    const members = await Promise.all([0, 1, 2, 3].map(() => insertMember(t.db, orgId, { role: 'STUDENT' })));
    const target = uniqueEmail('flooded');
    const toOneAddress = [];
    for (const member of members)
      toOneAddress.push((await orgEdit(adminSession, member.id, orgId, { email: target })).statusCode);
    expect(toOneAddress).toEqual([200, 200, 200, 429]);

    // One member moved again and again: its proven address hears of it at most three times.
    const member = await insertMember(t.db, orgId, { role: 'STUDENT', email: uniqueEmail('moved-often') });
    const moves = [];
    for (let i = 0; i < 4; i += 1)
      moves.push((await orgEdit(adminSession, member.id, orgId, { email: uniqueEmail('next') })).statusCode);
    expect(moves).toEqual([200, 200, 200, 429]);
  });
});
