/**
 * One seat count everywhere (decisions 0035 and 0046): the figures every organisation read answers
 * (seat-holders, pending invitations that keep a seat, open seats) are the ones the invite check
 * enforces, and the read that tells which addresses of a bulk list take no new seat answers about
 * the caller's organisation only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Group, parseGroupMetadata, prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';
import { newId } from '../../lib/ids.js';
import { buildInvitation } from '../../seed/builders.js';
import { buildTestApp, type TestApp } from '../../../test/build-app.js';
import { insertGroup, insertUser, signInNewMember } from '../../../test/fixtures.js';
import type { SignedInSession } from '../../../test/sign-in-client.js';

let t: TestApp;
let provider: SignedInSession;
beforeAll(async () => {
  t = await buildTestApp();
  provider = await signInNewMember(t, await insertGroup(t.db, { name: 'Figures Provider', seats: 10 }), { role: 'SUPER_ADMIN' });
});

let sequence = 0;
const freshEmail = (label = 'figures') => `${label}-${++sequence}-${newId().slice(0, 6)}@example.test`;

/** A member of `orgId`: a seat-holder unless subscribed; archived when removed. */
async function insertMembership(orgId: string, { subscribed = false, removed = false } = {}) {
  const account = await insertUser(t.db);
  await t.db
    .insert(groupMember)
    .values({ groupId: orgId, userId: account.id, role: 'STUDENT', subscribed, removedAt: removed ? new Date() : null });
  return account;
}

type InvitationOptions = { throughSubscription?: boolean; expired?: boolean; status?: 'pending' | 'declined' | 'revoked' };

async function insertInvitation(
  orgId: string,
  email: string,
  { throughSubscription = false, expired = false, status = 'pending' }: InvitationOptions = {},
) {
  await t.db.insert(invitation).values(
    buildInvitation({
      orgId,
      email,
      throughSubscription,
      status,
      ...(expired ? { expiresAt: new Date(Date.now() - 60_000) } : {}),
    }),
  );
}

/** An organisation with `seats` and its signed-in admin, who holds one of them. */
async function organisation(seats: number) {
  const name = `Figures ${newId().slice(0, 10)}`;
  const orgId = await insertGroup(t.db, { name, seats });
  const admin = await signInNewMember(t, orgId, { role: 'ADMIN' });
  return { orgId, name, admin };
}

const figuresOf = (group: Group | undefined) => {
  const metadata = group ? parseGroupMetadata(group) : null;
  return metadata
    ? {
        seats: metadata.seats,
        seatHolders: metadata.seatHolders,
        pendingSeatInvitations: metadata.pendingSeatInvitations,
        openSeats: metadata.openSeats,
      }
    : null;
};

/** The figures of the org profile, the inviter's groups (the invite dialogs) and the console list. */
async function figuresEverywhere(orgId: string, name: string, admin: SignedInSession) {
  t.app.cache.clear();
  const profile = await admin.client.get(`/api/users/extension/groups/${orgId}`);
  expect(profile.statusCode).toBe(200);
  const groups = await admin.client.get(`/api/users/extension/users/${admin.userId}/groups`);
  expect(groups.statusCode).toBe(200);
  const console = await provider.client.get(`/api/users/organizations?search=${encodeURIComponent(name)}`);
  expect(console.statusCode).toBe(200);
  return [
    figuresOf(profile.json()),
    figuresOf(groups.json().find((group: Group) => group._id === orgId)),
    figuresOf(console.json().items.find((group: Group) => group._id === orgId)),
  ];
}

const invite = (session: SignedInSession, orgId: string, emails: string[], { throughSubscription = false } = {}) =>
  session.client.post('/api/users/invitations/invite', {
    users: emails.map((email) => ({ email, role: 'STUDENT' })),
    org: orgId,
    throughSubscription,
  });

const addresses = (session: SignedInSession, orgId: string, payload: unknown) =>
  session.client.post(`/api/users/invites/org/${orgId}/addresses`, payload);

describe('the seat figures of an organisation', () => {
  it('count seat-holders and pending seat-keeping invitations only, the same on the profile, the inviter’s groups and the console', async () => {
    const { orgId, name, admin } = await organisation(10);
    for (let i = 0; i < 2; i += 1) await insertMembership(orgId);
    for (let i = 0; i < 2; i += 1) await insertMembership(orgId, { subscribed: true });
    await insertMembership(orgId, { removed: true });
    await insertInvitation(orgId, freshEmail());
    await insertInvitation(orgId, freshEmail());
    await insertInvitation(orgId, freshEmail(), { throughSubscription: true });
    await insertInvitation(orgId, freshEmail(), { expired: true });
    await insertInvitation(orgId, freshEmail(), { status: 'declined' });
    await insertInvitation(orgId, freshEmail(), { status: 'revoked' });

    // The admin and 2 more hold seats; 2 invitations keep one; 10 - 5 = 5 open.
    const expected = { seats: 10, seatHolders: 3, pendingSeatInvitations: 2, openSeats: 5 };
    expect(await figuresEverywhere(orgId, name, admin)).toEqual([expected, expected, expected]);
  });

  it('open exactly the seats the invite check lets through', async () => {
    const { orgId, name, admin } = await organisation(6);
    await insertMembership(orgId);
    await insertMembership(orgId, { subscribed: true });
    await insertInvitation(orgId, freshEmail());
    const [before] = await figuresEverywhere(orgId, name, admin);
    expect(before?.openSeats).toBe(3);

    const oneTooMany = await invite(admin, orgId, [freshEmail(), freshEmail(), freshEmail(), freshEmail()]);
    expect(oneTooMany.statusCode).toBe(422);
    expect(oneTooMany.json().code).toBe('SEATS_EXCEEDED');
    expect((await invite(admin, orgId, [freshEmail(), freshEmail(), freshEmail()])).statusCode).toBe(200);

    const after = { seats: 6, seatHolders: 2, pendingSeatInvitations: 4, openSeats: 0 };
    expect(await figuresEverywhere(orgId, name, admin)).toEqual([after, after, after]);
    // A subscribed invitation skips the seat check and keeps no seat.
    expect((await invite(admin, orgId, [freshEmail()], { throughSubscription: true })).statusCode).toBe(200);
    expect(await figuresEverywhere(orgId, name, admin)).toEqual([after, after, after]);
    expect((await invite(admin, orgId, [freshEmail()])).json().code).toBe('SEATS_EXCEEDED');
  });

  it('show no open seat, never a negative count, when the provider lowered the seats below those used', async () => {
    const { orgId, name, admin } = await organisation(5);
    await insertMembership(orgId);
    await insertInvitation(orgId, freshEmail());
    const lowered = await provider.client.request({
      method: 'PATCH',
      url: `/api/users/extension/groups/${orgId}`,
      payload: { seats: 2 },
    });
    expect(lowered.statusCode).toBe(200);
    const expected = { seats: 2, seatHolders: 2, pendingSeatInvitations: 1, openSeats: 0 };
    expect(figuresOf(lowered.json())).toEqual(expected);
    expect(await figuresEverywhere(orgId, name, admin)).toEqual([expected, expected, expected]);
  });

  it('are an organisation’s: a sub-group carries none', async () => {
    const { orgId, admin } = await organisation(5);
    await insertGroup(t.db, { name: prefixSubgroupName(orgId, 'Figures Cohort'), parentId: orgId });
    const nested = await admin.client.get(`/api/users/extension/groups/${orgId}/nested`);
    expect(nested.statusCode).toBe(200);
    expect(nested.json().map(figuresOf)).toEqual([
      { seats: 0, seatHolders: undefined, pendingSeatInvitations: undefined, openSeats: undefined },
    ]);
  });

  it('are read-only: a PATCH echoing them back changes nothing but the settings it names', async () => {
    const { orgId } = await organisation(4);
    const description = JSON.stringify({ seats: 5, seatHolders: 99, pendingSeatInvitations: 99, openSeats: 99 });
    const patched = await provider.client.request({
      method: 'PATCH',
      url: `/api/users/extension/groups/${orgId}`,
      payload: { description },
    });
    expect(patched.statusCode).toBe(200);
    expect(figuresOf(patched.json())).toEqual({ seats: 5, seatHolders: 1, pendingSeatInvitations: 0, openSeats: 4 });
  });
});

describe('POST invites/org/:id/addresses', () => {
  it('tells members, pending invitees and new addresses apart, as the bulk invite then counts their seats', async () => {
    const { orgId, admin } = await organisation(6);
    const member = await insertMembership(orgId);
    const subscribed = await insertMembership(orgId, { subscribed: true });
    const archived = await insertMembership(orgId, { removed: true });
    const pending = freshEmail('pending');
    await insertInvitation(orgId, pending);
    const pendingSubscribed = freshEmail('pending-subscribed');
    await insertInvitation(orgId, pendingSubscribed, { throughSubscription: true });
    const elsewhere = await organisation(5);
    const otherMember = await insertMembership(elsewhere.orgId);
    const otherInvitee = freshEmail('elsewhere');
    await insertInvitation(elsewhere.orgId, otherInvitee);
    const newcomer = freshEmail('new');

    const list = [
      member.email,
      subscribed.email,
      archived.email,
      pending,
      pendingSubscribed,
      otherMember.email,
      otherInvitee,
      newcomer,
    ];
    const answer = await addresses(admin, orgId, { emails: [...list, newcomer.toUpperCase()] });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      addresses: [
        { email: member.email, standing: 'member' },
        { email: subscribed.email, standing: 'member' },
        { email: archived.email, standing: 'new' },
        { email: pending, standing: 'invited' },
        { email: pendingSubscribed, standing: 'invited' },
        // Another organisation's member and invitee are not this organisation's business.
        { email: otherMember.email, standing: 'new' },
        { email: otherInvitee, standing: 'new' },
        { email: newcomer, standing: 'new' },
      ],
    });

    // 2 seat-holders + 1 pending + the 4 new addresses = 7: one seat short, then just enough.
    const short = await invite(admin, orgId, list);
    expect(short.json().code).toBe('SEATS_EXCEEDED');
    const raised = await provider.client.request({
      method: 'PATCH',
      url: `/api/users/extension/groups/${orgId}`,
      payload: { seats: 7 },
    });
    expect(raised.statusCode).toBe(200);
    const sent = await invite(admin, orgId, list);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().map((row: { outcome: string }) => row.outcome)).toEqual([
      'already-member',
      'already-member',
      'sent',
      'resent',
      'resent',
      'sent',
      'sent',
      'sent',
    ]);
  });

  it('refuses bad input with 400', async () => {
    const { orgId, admin } = await organisation(5);
    const tooMany = Array.from({ length: 51 }, () => freshEmail());
    for (const payload of [
      {},
      { emails: [] },
      { emails: tooMany },
      { emails: ['not-an-address'] },
      { emails: 'a@example.test' },
    ]) {
      const response = await addresses(admin, orgId, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    const subgroup = await insertGroup(t.db, { name: prefixSubgroupName(orgId, 'Address Cohort'), parentId: orgId });
    const inSubgroup = await addresses(admin, subgroup, { emails: [freshEmail()] });
    expect(inSubgroup.statusCode).toBe(400);
    expect(inSubgroup.json().code).toBe('VALIDATION_FAILED');
  });

  it('refuses the wrong role (403), another organisation or an unknown one (404), no token (401) and an ended session (401)', async () => {
    const { orgId, admin } = await organisation(10);
    const payload = { emails: [admin.email] };
    for (const role of ['USER', 'STUDENT'] as const) {
      const session = await signInNewMember(t, orgId, { role });
      const response = await addresses(session, orgId, payload);
      expect(response.statusCode, role).toBe(403);
      expect(response.json().code).toBe('FORBIDDEN');
    }
    const outsider = (await organisation(10)).admin;
    const other = await addresses(outsider, orgId, payload);
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('NOT_FOUND');
    expect((await addresses(admin, newId(), payload)).statusCode).toBe(404);

    const anonymous = await t.app.inject({ method: 'POST', url: `/api/users/invites/org/${orgId}/addresses`, payload });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');

    const ended = await signInNewMember(t, orgId, { role: 'ADMIN' });
    expect((await ended.client.post('/api/users/auth/sign-out')).statusCode).toBe(200);
    const afterSignOut = await addresses(ended, orgId, payload);
    expect(afterSignOut.statusCode).toBe(401);
    expect(afterSignOut.json().code).toBe('SESSION_ENDED');
  });
});
