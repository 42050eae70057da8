import type { Invite } from '@patientsim/domain/invitations/invitation.schemas';
import type { Database } from '../../db/client.js';
import { changeIdentity, type ReadCache } from '../../lib/read-cache.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { hashToken } from '../../lib/ids.js';
import type { RequestUser } from '../../lib/access.js';
import { findHolder, isVerifiedHolder } from '../../identity/email-ownership.js';
import { findUserById } from '../users/users.service.js';
import * as repo from './invitations.repository.js';
import { joinInvitedOrganisation, lockSeats } from './seats.service.js';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findInvitationById>>>;

function toInvite({ invitation, orgName, userId }: Row): Invite {
  return {
    _id: invitation.id,
    org_id: invitation.orgId ?? '',
    org_name: orgName ?? '',
    email: invitation.email,
    role: invitation.role,
    dismissed: invitation.status === 'dismissed',
    declined: invitation.status === 'declined',
    user_id: userId,
    throughSubscription: invitation.throughSubscription,
  };
}

const isUsable = (row: Row | null): row is Row =>
  row !== null && row.invitation.status === 'pending' && row.invitation.expiresAt > new Date() && row.invitation.orgId !== null;

/** Pending invitations for an address: one's own, or anyone's for a super admin. */
export async function listPendingInvitations({ db, actor, email }: { db: Database; actor: RequestUser; email: string }) {
  assert(email === actor.email || actor.role === 'SUPER_ADMIN', 'NOT_FOUND');
  return (await repo.findPendingInvitationsFor(db, email)).map(toInvite);
}

/** Pending invitations of a user (by id): one's own, or anyone's for a super admin. */
export async function listUserInvitations({ db, actor, userId }: { db: Database; actor: RequestUser; userId: string }) {
  assert(userId === actor.id || actor.role === 'SUPER_ADMIN', 'NOT_FOUND');
  const email = userId === actor.id ? actor.email : (await findUserById(db, userId))?.email;
  assert(email, 'NOT_FOUND');
  return (await repo.findPendingInvitationsFor(db, email)).map(toInvite);
}

/**
 * Uses the invitation and joins its organisation (and sub-groups), which becomes the active one;
 * refused when the organisation has no seat left for a seat-holder (see joinInvitedOrganisation).
 */
async function joinThroughInvitation({
  db,
  cache,
  row,
  userId,
  ip,
}: {
  db: Database;
  cache: ReadCache;
  row: Row;
  userId: string;
  ip: string;
}) {
  const orgId = row.invitation.orgId;
  assert(orgId, 'INVITATION_INVALID');
  await changeIdentity({ db, cache }, async (tx) => {
    const seats = await lockSeats(tx, orgId);
    // Settling first makes a second, concurrent acceptance of the same invitation fail cleanly.
    if (!(await repo.settleInvitation(tx, row.invitation.id, 'accepted'))) throw new AppError('INVITATION_INVALID');
    await joinInvitedOrganisation(tx, { invitation: { ...row.invitation, orgId }, userId, seats });
  });
  await auditAs(
    db,
    { id: userId },
    {
      action: 'invitation.accept',
      targetType: 'invitation',
      targetId: row.invitation.id,
      orgId,
      ipAddress: ip,
    },
  );
  return { orgId };
}

/** Accept from the profile: the invitation must be addressed to the signed-in user. */
export async function finishInvite({
  db,
  cache,
  actor,
  inviteId,
  email,
  ip,
}: {
  db: Database;
  cache: ReadCache;
  actor: RequestUser;
  inviteId: string;
  email: string;
  ip: string;
}) {
  const row = await repo.findInvitationById(db, inviteId);
  assert(row && row.invitation.email === actor.email && email === actor.email, 'NOT_FOUND');
  // Only the proven owner of the invited address may accept (an e-mail change is not proof).
  assert(actor.email_verified, 'EMAIL_NOT_VERIFIED');
  assert(isUsable(row), 'INVITATION_INVALID');
  return joinThroughInvitation({ db, cache, row, userId: actor.id, ip });
}

/**
 * Accept from the e-mailed link: the bearer is the invitation token, bound to the invited address,
 * which must already have an account (an address without one signs up through the link instead).
 */
export async function finishInvitationWithToken({
  db,
  cache,
  token,
  email,
  ip,
}: {
  db: Database;
  cache: ReadCache;
  token: string;
  email: string;
  ip: string;
}) {
  const row = await repo.findInvitationByTokenHash(db, hashToken(token));
  assert(isUsable(row), 'INVITATION_INVALID');
  assert(row.invitation.email === email, 'INVITATION_EMAIL_MISMATCH');
  const account = await findHolder(db, email);
  // An unverified claim on the address is not an account of the invitee: they sign up instead.
  assert(isVerifiedHolder(account) && !account.deletedAt, 'INVITATION_INVALID', {
    message: 'Create your account from the invitation link first.',
  });
  return joinThroughInvitation({ db, cache, row, userId: account.id, ip });
}

/** What the accept-invite screen needs to know about a token before acting on it. */
export async function describeInvitation({ db, token }: { db: Database; token: string }) {
  const row = await repo.findInvitationByTokenHash(db, hashToken(token));
  assert(isUsable(row), 'INVITATION_INVALID');
  const holder = await findHolder(db, row.invitation.email);
  return { email: row.invitation.email, orgName: row.orgName, hasAccount: isVerifiedHolder(holder) && !holder.deletedAt };
}

/** Decline or dismiss an invitation addressed to the signed-in user. */
export async function settleOwnInvitation({
  db,
  actor,
  inviteId,
  status,
  ip,
}: {
  db: Database;
  actor: RequestUser;
  inviteId: string;
  status: 'declined' | 'dismissed';
  ip: string;
}) {
  const row = await repo.findInvitationById(db, inviteId);
  assert(row && row.invitation.email === actor.email, 'NOT_FOUND');
  assert(await repo.settleInvitation(db, inviteId, status), 'INVITATION_INVALID');
  await auditAs(db, actor, {
    action: status === 'declined' ? 'invitation.decline' : 'invitation.dismiss',
    targetType: 'invitation',
    targetId: inviteId,
    orgId: row.invitation.orgId,
    ipAddress: ip,
  });
}
