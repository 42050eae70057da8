/**
 * The seat limit of an organisation on every path by which someone becomes or stays a seat-holding
 * member (decision 0035): inviting (single, bulk, with a new organisation), accepting (the e-mailed
 * link, the profile, signing up through the link), provisioning, moving, group membership and role
 * changes, alone and concurrently. Subscribed invitations bring in subscribed members, who hold no
 * seat.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_VERSION } from '@patientsim/domain/common/constants';
import { prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import type { Role } from '@patientsim/domain/roles/roles';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import { buildInvitation } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { createClient } from '../../../test/client.js';
import { insertGroup, insertUser, signInNewMember } from '../../../test/fixtures.js';
import { signInAs, type SignedInSession } from '../../../test/sign-in-client.js';

const INTEGRATION_KEY = 'integration-key-for-seat-tests-0123456789';

let t: TestApp;
let provider: SignedInSession;
beforeAll(async () => {
  t = await buildTestApp({ env: { INTEGRATION_KEY } });
  provider = await signInNewMember(t, await insertGroup(t.db, { name: 'Seat Provider', seats: 10 }), { role: 'SUPER_ADMIN' });
});

let sequence = 0;
const freshEmail = (label = 'seat') => `${label}-${++sequence}-${newId().slice(0, 6)}@example.test`;

type Account = Awaited<ReturnType<typeof insertUser>>;

/** A member of `orgId`: a seat-holder unless subscribed; archived when removed. */
async function insertMembership(
  orgId: string,
  { subscribed = false, removed = false, role = 'STUDENT' }: { subscribed?: boolean; removed?: boolean; role?: Role } = {},
): Promise<Account> {
  const account = await insertUser(t.db, { role });
  await t.db
    .insert(groupMember)
    .values({ groupId: orgId, userId: account.id, role, subscribed, removedAt: removed ? new Date() : null });
  return account;
}

/** An organisation with `seats`, its signed-in admin (a seat-holder), more seat-holders and subscribed members. */
async function organisation({ seats, holders = 0, subscribed = 0 }: { seats: number; holders?: number; subscribed?: number }) {
  const orgId = await insertGroup(t.db, { name: `Seats ${newId().slice(0, 8)}`, seats });
  const admin = await signInNewMember(t, orgId, { role: 'ADMIN' });
  const seatHolding: Account[] = [];
  for (let i = 0; i < holders; i += 1) seatHolding.push(await insertMembership(orgId));
  const subscribedMembers: Account[] = [];
  for (let i = 0; i < subscribed; i += 1) subscribedMembers.push(await insertMembership(orgId, { subscribed: true }));
  return { orgId, admin, seatHolding, subscribedMembers };
}

/** Active members of `orgId` who hold a seat (not subscribed), counted from the rows themselves. */
async function countSeatHolders(orgId: string): Promise<number> {
  const rows = await t.db
    .select({ userId: groupMember.userId })
    .from(groupMember)
    .where(and(eq(groupMember.groupId, orgId), isNull(groupMember.removedAt), eq(groupMember.subscribed, false)));
  return rows.length;
}

async function countPendingSeatInvitations(orgId: string): Promise<number> {
  const rows = await t.db
    .select({ id: invitation.id })
    .from(invitation)
    .where(and(eq(invitation.orgId, orgId), eq(invitation.status, 'pending'), eq(invitation.throughSubscription, false)));
  return rows.length;
}

/** The invariant: no more seat-holders than seats, and the organisation's stored counts agree with its rows. */
async function expectWithinSeats(orgId: string): Promise<number> {
  const [row] = await t.db.select().from(group).where(eq(group.id, orgId));
  const holders = await countSeatHolders(orgId);
  expect(holders, 'seat-holders').toBeLessThanOrEqual(row?.seats ?? -1);
  expect((row?.memberCount ?? 0) - (row?.subscribedMemberCount ?? 0), 'stored seat-holders').toBe(holders);
  return holders;
}

async function membershipOf(orgId: string, userId: string) {
  const [row] = await t.db
    .select()
    .from(groupMember)
    .where(and(eq(groupMember.groupId, orgId), eq(groupMember.userId, userId)));
  return row ?? null;
}

const invite = (session: SignedInSession, orgId: string, emails: string[], { throughSubscription = false } = {}) =>
  session.client.post('/api/users/invitations/invite', {
    users: emails.map((email) => ({ email, role: 'STUDENT' })),
    org: orgId,
    throughSubscription,
  });

const setSeats = (orgId: string, seats: number) =>
  provider.client.request({ method: 'PATCH', url: `/api/users/extension/groups/${orgId}`, payload: { seats } });

/** A pending invitation into `orgId` (through a subscription or not) and the token its e-mail carries. */
async function pendingInvitation(orgId: string, email: string, { throughSubscription = false } = {}) {
  const token = newToken();
  const row = buildInvitation({ orgId, email, tokenHash: hashToken(token), throughSubscription });
  await t.db.insert(invitation).values(row);
  return { id: row.id, email: row.email, token };
}

/** The invitation token of the last e-mail to `email`. */
function mailedToken(email: string): string {
  const message = [...t.outbox].reverse().find((m) => m.to === email);
  const link = /https?:\/\/\S+\/auth\/(?:accept-invite|signup)\?\S+/.exec(message?.text ?? '')?.[0];
  expect(link, `invitation link to ${email}`).toBeDefined();
  return new URL(link ?? '').searchParams.get('token') ?? '';
}

type Pending = { id: string; email: string; token: string };

/**
 * The three ways to accept an invitation, each made ready before it is called (so that concurrent
 * calls are only the acceptances): the e-mailed link with an account (finish), the profile
 * (finish-invite, signed in) and signing up through the link.
 */
const acceptThroughLink = (pending: Pending) => () =>
  createClient(t.app).post(
    '/api/users/invitations/finish',
    { email: pending.email },
    { authorization: `Bearer ${pending.token}` },
  );

async function acceptOnProfile(pending: Pending, account: Account) {
  const { client } = await signInAs(t, account.email, account.password);
  return () => client.post('/api/users/invitations/finish-invite', { inviteId: pending.id, email: pending.email });
}

const acceptBySigningUp = (pending: Pending) => () =>
  createClient(t.app).post('/api/users/auth/sign-up', {
    token: pending.token,
    email: pending.email,
    given_name: 'New',
    family_name: 'Member',
    password: 'Fresh-Pass-2026',
  });

/** A provisioning link into `orgId` (decision 15): the answer, and its token when it was given. */
async function provision(orgId: string) {
  const response = await createClient(t.app).post(
    '/api/users/integrations/provision',
    { email: freshEmail('roster'), given_name: 'Rosa', family_name: 'Ster', orgId, role: 'STUDENT' },
    { 'x-integration-key': INTEGRATION_KEY },
  );
  const token = response.statusCode === 200 ? (new URL(response.json().link).searchParams.get('token') ?? '') : '';
  return { response, token };
}

const addProvisionedUser = (token: string) => () =>
  createClient(t.app).post('/api/users/integrations/add-user', { token, password: 'Chosen-Pass-2026' });

const move = (userId: string, orgId: string) => () => provider.client.post(`/api/users/users/${userId}/move`, { orgId });

const statuses = (responses: Array<{ statusCode: number }>) => responses.map((r) => r.statusCode).sort();

describe('subscribed invitations bring in subscribed members', () => {
  it('keeps a full 3-seat organisation at 3 seat-holders: newcomers and returning members join subscribed', async () => {
    const { orgId, admin } = await organisation({ seats: 3, holders: 2 });
    const returningByLink = await insertMembership(orgId, { removed: true });
    const returningOnProfile = await insertMembership(orgId, { removed: true });
    const newAccount = await insertUser(t.db);
    const newAddress = freshEmail('subscriber');
    const emails = [returningByLink.email, returningOnProfile.email, newAccount.email, newAddress];
    const response = await invite(admin, orgId, emails, { throughSubscription: true });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((row: { outcome: string }) => row.outcome)).toEqual(['sent', 'sent', 'sent', 'sent']);

    const invitations = await t.db.select().from(invitation).where(eq(invitation.orgId, orgId));
    const pendingFor = (email: string): Pending => ({
      id: invitations.find((row) => row.email === email)?.id ?? '',
      email,
      token: mailedToken(email),
    });
    const accepted = [
      await acceptThroughLink(pendingFor(returningByLink.email))(),
      await (await acceptOnProfile(pendingFor(returningOnProfile.email), returningOnProfile))(),
      await acceptThroughLink(pendingFor(newAccount.email))(),
      await acceptBySigningUp(pendingFor(newAddress))(),
    ];
    expect(statuses(accepted)).toEqual([200, 200, 200, 200]);

    expect(await expectWithinSeats(orgId)).toBe(3);
    for (const account of [returningByLink, returningOnProfile, newAccount]) {
      expect(await membershipOf(orgId, account.id)).toMatchObject({ subscribed: true, removedAt: null });
    }
    const subscribedUsers = await admin.client.get(`/api/users/extension/groups/${orgId}/members?variant=subscribed`);
    expect(
      subscribedUsers
        .json()
        .items.map((row: { email: string }) => row.email)
        .sort(),
    ).toEqual([...emails].sort());
    const metadata = JSON.parse((await admin.client.get(`/api/users/extension/groups/${orgId}`)).json().description);
    expect(metadata).toMatchObject({ seats: 3, memberCount: 7, seatHolders: 3 });
    // Still full for everyone who would take a seat.
    expect((await invite(admin, orgId, [freshEmail()])).json().code).toBe('SEATS_EXCEEDED');
  });
});

describe('seats used: seat-holding members plus pending invitations that take a seat', () => {
  it('does not count subscribed members, nor the members and pending invitees of a bulk list, as new seats', async () => {
    const { orgId, admin, seatHolding, subscribedMembers } = await organisation({ seats: 4, holders: 1, subscribed: 3 });
    const pendingEmail = freshEmail('pending');
    await pendingInvitation(orgId, pendingEmail);
    // 2 seat-holders + 1 pending = 3 of 4.
    const bulk = await invite(admin, orgId, [
      seatHolding[0]?.email ?? '',
      subscribedMembers[0]?.email ?? '',
      pendingEmail,
      freshEmail('new'),
    ]);
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json().map((row: { outcome: string }) => row.outcome)).toEqual([
      'already-member',
      'already-member',
      'resent',
      'sent',
    ]);
    const single = await invite(admin, orgId, [freshEmail('one-too-many')]);
    expect(single.statusCode).toBe(422);
    expect(single.json()).toMatchObject({ code: 'SEATS_EXCEEDED' });
    expect(await countPendingSeatInvitations(orgId)).toBe(2);
    expect((await invite(admin, orgId, [freshEmail('subscriber')], { throughSubscription: true })).statusCode).toBe(200);
    await expectWithinSeats(orgId);
  });
});

describe('accepting an invitation', () => {
  it('takes the seat its invitation reserved, and is refused on every path when the seats were lowered since', async () => {
    const { orgId } = await organisation({ seats: 5, holders: 1 });
    const linkAccount = await insertUser(t.db);
    const profileAccount = await insertUser(t.db);
    const byLink = await pendingInvitation(orgId, linkAccount.email);
    const onProfile = await pendingInvitation(orgId, profileAccount.email);
    const bySignUp = await pendingInvitation(orgId, freshEmail('signing-up'));
    // 2 seat-holders + 3 reserved = 5 of 5; the provider lowers the seats to 3.
    expect((await setSeats(orgId, 3)).statusCode).toBe(200);

    expect((await acceptThroughLink(byLink)()).statusCode).toBe(200);
    const profile = await acceptOnProfile(onProfile, profileAccount);
    const refused = [await profile(), await acceptBySigningUp(bySignUp)()];
    for (const response of refused) {
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('SEATS_EXCEEDED');
    }
    // Nothing of a refused acceptance stays: the invitations are still pending, nobody joined, no account was made.
    expect(await countPendingSeatInvitations(orgId)).toBe(2);
    expect(await membershipOf(orgId, profileAccount.id)).toBeNull();
    expect(await t.db.select().from(user).where(eq(user.email, bySignUp.email))).toEqual([]);
    expect(await expectWithinSeats(orgId)).toBe(3);

    expect((await setSeats(orgId, 5)).statusCode).toBe(200);
    expect((await profile()).statusCode).toBe(200);
    expect((await acceptBySigningUp(bySignUp)()).statusCode).toBe(200);
    expect(await expectWithinSeats(orgId)).toBe(5);
  });

  it('lets the key owner the provider named join a new organisation, whose seats default to 0', async () => {
    const keyOwnerEmail = freshEmail('key-owner');
    const created = await provider.client.post('/api/users/invitations/invite', {
      users: [{ email: keyOwnerEmail }],
      org: { name: `New ${newId().slice(0, 6)}`, productType: 'EMS' },
      throughSubscription: false,
    });
    expect(created.statusCode).toBe(200);
    const orgId = created.json()[0].createdOrg._id as string;
    const [pending] = await t.db.select().from(invitation).where(eq(invitation.orgId, orgId));
    const signedUp = await acceptBySigningUp({
      id: pending?.id ?? '',
      email: keyOwnerEmail,
      token: mailedToken(keyOwnerEmail),
    })();
    expect(signedUp.statusCode).toBe(200);
    const [org] = await t.db.select().from(group).where(eq(group.id, orgId));
    const [account] = await t.db.select().from(user).where(eq(user.email, keyOwnerEmail));
    expect(org?.ownerId).toBe(account?.id);
    expect(await membershipOf(orgId, account?.id ?? '')).toMatchObject({ role: 'ADMIN', subscribed: false });
    // Nobody else takes a seat until the provider gives the organisation some.
    await t.db
      .update(user)
      .set({ licenseVersion: LICENSE_VERSION })
      .where(eq(user.id, account?.id ?? ''));
    const keyOwner = await signInAs(t, keyOwnerEmail, 'Fresh-Pass-2026');
    expect((await invite(keyOwner, orgId, [freshEmail()])).statusCode).toBe(422);
    expect((await setSeats(orgId, 2)).statusCode).toBe(200);
    expect((await invite(keyOwner, orgId, [freshEmail()])).statusCode).toBe(200);
  });
});

describe('provisioning through an integration', () => {
  it('needs a free seat when the link is made and when the account is created', async () => {
    const { orgId } = await organisation({ seats: 3, subscribed: 1 });
    await pendingInvitation(orgId, freshEmail('reserved'));
    // 1 seat-holder + 1 reserved = 2 of 3: one seat is free, and both links are given.
    const first = await provision(orgId);
    const second = await provision(orgId);
    expect([first.response.statusCode, second.response.statusCode]).toEqual([200, 200]);
    expect((await addProvisionedUser(first.token)()).statusCode).toBe(200);
    const refused = await addProvisionedUser(second.token)();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('SEATS_EXCEEDED');
    // The refused link is not used up: it works once a seat is free.
    expect((await createClient(t.app).get(`/api/users/integrations/provisioning?token=${second.token}`)).statusCode).toBe(200);
    const third = await provision(orgId);
    expect(third.response.statusCode).toBe(422);
    expect(third.response.json().code).toBe('SEATS_EXCEEDED');
    expect(await expectWithinSeats(orgId)).toBe(2);
  });
});

describe('moving a person into an organisation', () => {
  it('counts seat-holders only, and a returning subscribed membership comes back holding a seat', async () => {
    const { orgId } = await organisation({ seats: 3, subscribed: 1 });
    const returning = await insertMembership(orgId, { subscribed: true, removed: true });
    const second = await insertUser(t.db);
    const third = await insertUser(t.db);
    expect((await move(returning.id, orgId)()).statusCode).toBe(200);
    expect(await membershipOf(orgId, returning.id)).toMatchObject({ subscribed: false, removedAt: null });
    expect((await move(second.id, orgId)()).statusCode).toBe(200);
    const refused = await move(third.id, orgId)();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('SEATS_EXCEEDED');
    expect(await expectWithinSeats(orgId)).toBe(3);
  });
});

describe('group membership and roles', () => {
  it('adding a subscribed member to a group keeps them subscribed there and takes no seat', async () => {
    const { orgId, admin } = await organisation({ seats: 2, holders: 1 });
    const subscriber = await insertMembership(orgId, { subscribed: true });
    const cohort = await insertGroup(t.db, { name: prefixSubgroupName(orgId, 'Cohort'), parentId: orgId });
    const patch = (groupId: string, userIds: string[]) =>
      admin.client.request({ method: 'PATCH', url: `/api/users/extension/groups/${groupId}/members`, payload: userIds });
    expect((await patch(cohort, [subscriber.id])).statusCode).toBe(200);
    expect(await membershipOf(cohort, subscriber.id)).toMatchObject({ subscribed: true });
    // Group adds are for groups inside the organisation: nobody joins the organisation itself this way.
    const outsider = await insertUser(t.db);
    expect((await patch(orgId, [outsider.id])).statusCode).toBe(422);
    expect((await patch(cohort, [outsider.id])).statusCode).toBe(404);
    expect(await expectWithinSeats(orgId)).toBe(2);
  });

  it('a role change keeps a subscribed member subscribed, holding no seat', async () => {
    const { orgId, admin } = await organisation({ seats: 2, holders: 1 });
    const subscriber = await insertMembership(orgId, { subscribed: true });
    const changed = await admin.client.request({
      method: 'PATCH',
      url: `/api/users/users/${subscriber.id}?orgId=${orgId}`,
      payload: { role: 'USER' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await membershipOf(orgId, subscriber.id)).toMatchObject({ role: 'USER', subscribed: true });
    expect(await expectWithinSeats(orgId)).toBe(2);
  });
});

describe('concurrent calls against a nearly full organisation', () => {
  it('lets only as many concurrent invitations through as there are free seats', async () => {
    const { orgId, admin } = await organisation({ seats: 5, holders: 1, subscribed: 2 });
    const secondAdmin = await signInNewMember(t, orgId, { role: 'ADMIN' });
    // 3 seat-holders of 5: two seats are free.
    const responses = await Promise.all([
      invite(admin, orgId, [freshEmail('race')]),
      invite(secondAdmin, orgId, [freshEmail('race')]),
      invite(admin, orgId, [freshEmail('race')]),
      invite(secondAdmin, orgId, [freshEmail('race')]),
    ]);
    expect(statuses(responses)).toEqual([200, 200, 422, 422]);
    expect(await countPendingSeatInvitations(orgId)).toBe(2);
    await expectWithinSeats(orgId);
  });

  it('lets only as many concurrent acceptances through as there are seats, on every path', async () => {
    const { orgId } = await organisation({ seats: 6 });
    const accounts = [await insertUser(t.db), await insertUser(t.db), await insertUser(t.db), await insertUser(t.db)];
    const [a, b, c, d] = await Promise.all(accounts.map((account) => pendingInvitation(orgId, account.email)));
    const signingUp = await pendingInvitation(orgId, freshEmail('signing-up'));
    if (!a || !b || !c || !d || !accounts[2] || !accounts[3]) throw new Error('setup');
    // 1 seat-holder + 5 reserved = 6; lowered to 3, two of the five can still join.
    expect((await setSeats(orgId, 3)).statusCode).toBe(200);
    const acceptances = [
      acceptThroughLink(a),
      acceptThroughLink(b),
      await acceptOnProfile(c, accounts[2]),
      await acceptOnProfile(d, accounts[3]),
      acceptBySigningUp(signingUp),
    ];
    const responses = await Promise.all(acceptances.map((accept) => accept()));
    expect(statuses(responses)).toEqual([200, 200, 422, 422, 422]);
    expect(await expectWithinSeats(orgId)).toBe(3);
  });

  it('gives the last free seat to one of concurrent moves, provisioned accounts and invitations, while a subscribed acceptance takes none', async () => {
    const { orgId, admin } = await organisation({ seats: 3, holders: 1 });
    const movers = [await insertUser(t.db), await insertUser(t.db)];
    const links = [await provision(orgId), await provision(orgId)];
    expect(links.map((link) => link.response.statusCode)).toEqual([200, 200]);
    const returning = await insertMembership(orgId, { removed: true });
    const subscribedReturn = await pendingInvitation(orgId, returning.email, { throughSubscription: true });

    const seatTaking = [
      move(movers[0]?.id ?? '', orgId),
      move(movers[1]?.id ?? '', orgId),
      addProvisionedUser(links[0]?.token ?? ''),
      addProvisionedUser(links[1]?.token ?? ''),
      () => invite(admin, orgId, [freshEmail('race')]),
    ];
    const [subscribed, ...responses] = await Promise.all(
      [acceptThroughLink(subscribedReturn), ...seatTaking].map((call) => call()),
    );
    expect(subscribed?.statusCode).toBe(200);
    expect(statuses(responses)).toEqual([200, 422, 422, 422, 422]);
    for (const response of responses) if (response.statusCode === 422) expect(response.json().code).toBe('SEATS_EXCEEDED');
    expect(await membershipOf(orgId, returning.id)).toMatchObject({ subscribed: true, removedAt: null });
    const holders = await expectWithinSeats(orgId);
    expect(holders + (await countPendingSeatInvitations(orgId))).toBe(3);
  });
});
