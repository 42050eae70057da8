import { INVITATION_TOKEN_SECONDS } from '@patientsim/domain/common/constants';
import type { Invite } from '@patientsim/domain/invitations/invitation.schemas';
import { keepsSeats, seatsUsed } from '@patientsim/domain/groups/seats';
import type {
  AddressStanding,
  InviteEntry,
  InviteResult,
  NewOrganisation,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { canAssignRole, type Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { findHolder, isVerifiedHolder } from '../../identity/email-ownership.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { hashToken, newId, newToken } from '../../lib/ids.js';
import { invitationEmail } from '../../mail/templates.js';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import type { Services } from '../../plugins/app/services.js';
import { sendInBackground } from '../../lib/background-mail.js';
import { LIMITS } from '../../lib/limits.js';
import { createOrganisation, findSubgroupsOf, toWireGroup } from '../organisations/organisations.service.js';
import { findMemberEmails } from '../users/users.service.js';
import * as repo from './invitations.repository.js';
import { lockSeats, type OrganisationSeats } from './seats.service.js';

type Ctx = Pick<Services, 'db' | 'cache' | 'mailer' | 'limiter' | 'env'>;
type Actor = { actor: RequestUser; ip: string };

/** The invitation link of decision 8: accept with an account, sign up without one. */
function invitationLink(publicUrl: string, { email, token, hasAccount }: { email: string; token: string; hasAccount: boolean }) {
  const encodedToken = encodeURIComponent(token);
  return hasAccount
    ? `${publicUrl}/auth/accept-invite?token=${encodedToken}`
    : `${publicUrl}/auth/signup?email=${encodeURIComponent(email)}&token=${encodedToken}`;
}

/** The account of an address: only a proven, live one accepts from the link; anyone else signs up through it. */
async function findAccountId(db: Database, email: string): Promise<string | null> {
  const holder = await findHolder(db, email);
  return isVerifiedHolder(holder) && !holder.deletedAt ? holder.id : null;
}

/** Counts one invitation e-mail to `email` (spec's per-address limit); false when over it. */
async function takeMailAllowance(ctx: Ctx, email: string): Promise<boolean> {
  const state = await ctx.limiter.consume(`invite:${email}`, LIMITS.emailPerAddress);
  if (state.isAllowed) return true;
  await ctx.limiter.refund(`invite:${email}`, LIMITS.emailPerAddress);
  return false;
}

type Target = { kind: 'existing'; access: OrgAccess } | { kind: 'new'; organisation: NewOrganisation };

type Planned = InviteResult & { role: Role; mail?: { token: string; inviteId: string; isNew: boolean } };

/**
 * Invites addresses into an organisation (spec 7, POST /invitations/invite), all or nothing.
 * Per address: a new invitation (`sent`), a fresh link for a pending one (`resent`), nothing for
 * an active member (`already-member`), or `refused` past the per-address mail limit. Unless
 * through a subscription, the seats used (seat-holding members and pending invitations that keep a
 * seat) plus the new invitations must fit the seats (decision 0035); the organisation is locked
 * meanwhile so that concurrent invitations are counted one after the other. Invited through a
 * subscription, people join as subscribed members, who hold no seat. With a new organisation (the
 * provider's staff), it is created with the invitations and its first address is invited as ADMIN,
 * without taking a seat, and is its key owner: at once when it already has an account, otherwise
 * when that person signs up or accepts (an admin joining an organisation without a key owner
 * becomes it).
 */
export async function createInvitations({
  ctx,
  actor,
  ip,
  target,
  users,
  throughSubscription,
  groupMembership,
}: Actor & {
  ctx: Ctx;
  target: Target;
  users: InviteEntry[];
  throughSubscription: boolean;
  groupMembership: string[];
}): Promise<InviteResult[]> {
  const inviterRole: Role = target.kind === 'existing' ? target.access.role : 'SUPER_ADMIN';
  const entries = users.map((entry, index) =>
    target.kind === 'new' && index === 0 ? { ...entry, role: 'ADMIN' as const } : entry,
  );
  const tooHigh = entries.find((entry) => !canAssignRole(inviterRole, entry.role));
  if (tooHigh) {
    throw new AppError('FORBIDDEN', { message: `You cannot invite ${tooHigh.email} with a role above your own.` });
  }
  const groupIds = [...new Set(groupMembership)];
  if (target.kind === 'new' && groupIds.length > 0) {
    throw new AppError('VALIDATION_FAILED', { message: 'A new organization has no groups yet.' });
  }
  if (target.kind === 'existing' && target.access.group.parentId !== null) {
    throw new AppError('VALIDATION_FAILED', { message: 'Invitations are sent into an organization, not a group.' });
  }
  // Account lookups before the transaction: they decide the link, not the seats.
  const accounts = new Map<string, string | null>();
  for (const entry of entries) accounts.set(entry.email, await findAccountId(ctx.db, entry.email));

  const { planned, org, isNewOrg } = await changeIdentity(ctx, async (tx) => {
    const seats: OrganisationSeats =
      target.kind === 'existing'
        ? await lockSeats(tx, target.access.orgId)
        : {
            org: await createOrganisation(tx, {
              name: target.organisation.name,
              productType: target.organisation.productType,
              seats: target.organisation.seats ?? 0,
              // The first invited address, if it has an account (the owner must be an existing user).
              ownerId: accounts.get(entries[0]?.email ?? '') ?? null,
            }),
            seatHolders: 0,
            pendingSeatInvitations: 0,
          };
    const { org } = seats;
    if (groupIds.length > 0) {
      const found = await findSubgroupsOf(tx, org.id, groupIds);
      assert(found.length === groupIds.length, 'NOT_FOUND', {
        message: 'One or more groups were not found in this organization.',
      });
    }
    const emails = entries.map((entry) => entry.email);
    const members = target.kind === 'existing' ? await findMemberEmails(tx, org.id, emails) : new Set<string>();
    const pending = new Map((await repo.findPendingInvitationsTo(tx, org.id, emails)).map((row) => [row.email, row] as const));

    const rows: Planned[] = [];
    for (const entry of entries) {
      const base = {
        user: { email: entry.email, hasAccount: Boolean(accounts.get(entry.email)) },
        createdOrg: null,
        role: entry.role,
      };
      if (members.has(entry.email)) {
        rows.push({ ...base, outcome: 'already-member', message: 'Already a member of this organization.' });
        continue;
      }
      // The mail limit is checked before anything is written: a refused address never half-sends.
      if (!(await takeMailAllowance(ctx, entry.email))) {
        rows.push({ ...base, outcome: 'refused', message: 'Too many invitations were sent to this address. Try again later.' });
        continue;
      }
      const existing = pending.get(entry.email);
      const token = newToken();
      rows.push(
        existing
          ? { ...base, outcome: 'resent', mail: { token, inviteId: existing.id, isNew: false } }
          : { ...base, outcome: 'sent', mail: { token, inviteId: newId(), isNew: true } },
      );
    }

    // A new organisation's first address is its key owner, whom the provider creates it for: that
    // invitation takes no seat (seats default to 0, spec section 9); everyone else's does. Members
    // and re-sent invitations in the list already count.
    const added = rows.filter((row, index) => row.outcome === 'sent' && !(target.kind === 'new' && index === 0)).length;
    if (!throughSubscription && added > 0) {
      const after = { ...seats, pendingSeatInvitations: seats.pendingSeatInvitations + added };
      if (!keepsSeats({ before: seats, after, seats: org.seats })) {
        for (const row of rows) if (row.mail) await ctx.limiter.refund(`invite:${row.user.email}`, LIMITS.emailPerAddress);
        throw new AppError('SEATS_EXCEEDED', {
          details: { seatHolders: seats.seatHolders, used: seatsUsed(after), seats: org.seats },
        });
      }
    }

    const expiresAt = new Date(Date.now() + INVITATION_TOKEN_SECONDS * 1000);
    await repo.insertInvitations(
      tx,
      rows.flatMap((row) =>
        row.mail?.isNew
          ? [
              {
                id: row.mail.inviteId,
                orgId: org.id,
                email: row.user.email,
                role: row.role,
                throughSubscription,
                groupIds,
                tokenHash: hashToken(row.mail.token),
                inviterId: actor.id,
                expiresAt,
              },
            ]
          : [],
      ),
    );
    for (const row of rows) {
      if (row.mail && !row.mail.isNew) {
        await repo.renewInvitationToken(tx, row.mail.inviteId, { tokenHash: hashToken(row.mail.token), expiresAt });
      }
    }
    if (target.kind === 'new') {
      await auditAs(tx, actor, {
        action: 'organisation.create',
        targetType: 'group',
        targetId: org.id,
        orgId: org.id,
        ipAddress: ip,
        details: {
          name: org.name,
          seats: org.seats,
          productType: org.productType,
          keyOwnerId: org.ownerId,
          firstInvited: entries[0]?.email,
        },
      });
    }
    for (const row of rows) {
      if (!row.mail) continue;
      await auditAs(tx, actor, {
        action: row.mail.isNew ? 'invitation.create' : 'invitation.resend',
        targetType: 'invitation',
        targetId: row.mail.inviteId,
        orgId: org.id,
        ipAddress: ip,
        details: { email: row.user.email, role: row.role, throughSubscription, groupIds },
      });
    }
    return { planned: rows, org, isNewOrg: target.kind === 'new' };
  });

  for (const row of planned) {
    if (!row.mail) continue;
    const url = invitationLink(ctx.env.PUBLIC_URL, {
      email: row.user.email,
      token: row.mail.token,
      hasAccount: row.user.hasAccount,
    });
    sendInBackground(ctx, invitationEmail({ to: row.user.email, url, orgName: org.name }));
  }
  const createdOrg = isNewOrg ? toWireGroup(org, 0) : null;
  return planned.map(({ user, outcome, message }) => ({ user, createdOrg, outcome, ...(message ? { message } : {}) }));
}

type Pending = Awaited<ReturnType<typeof repo.findPendingInvitationsOfOrganisation>>[number];

function toInvite({ invitation, orgName, userId }: Pending): Invite {
  return {
    _id: invitation.id,
    org_id: invitation.orgId ?? '',
    org_name: orgName ?? '',
    email: invitation.email,
    role: invitation.role,
    dismissed: false,
    declined: false,
    user_id: userId,
    throughSubscription: invitation.throughSubscription,
  };
}

/** The pending invitations of the organisation the request names (GET invites/org/{id}). */
export async function listOrganisationInvitations({ db, access }: { db: Database; access: OrgAccess }): Promise<Invite[]> {
  return (await repo.findPendingInvitationsOfOrganisation(db, access.orgId)).map(toInvite);
}

/**
 * For each of `emails`, what inviting it into the organisation the request names would do to its
 * seats (POST invites/org/{id}/addresses, decision 0046), decided as `createInvitations` decides:
 * an active member is not invited again, a pending invitation is sent again and keeps the seat it
 * has. It answers only about this organisation, what its users list already shows the inviter: an
 * address known elsewhere (another organisation, an account without a membership here) is `new`.
 */
export async function describeInvitedAddresses({
  db,
  access,
  emails,
}: {
  db: Database;
  access: OrgAccess;
  emails: string[];
}): Promise<Array<{ email: string; standing: AddressStanding }>> {
  assert(access.group.parentId === null, 'VALIDATION_FAILED', {
    message: 'Invitations are sent into an organization, not a group.',
  });
  const unique = [...new Set(emails)];
  const members = await findMemberEmails(db, access.orgId, unique);
  const invited = new Set((await repo.findPendingInvitationsTo(db, access.orgId, unique)).map((row) => row.email));
  return unique.map((email) => ({
    email,
    standing: members.has(email) ? 'member' : invited.has(email) ? 'invited' : 'new',
  }));
}

/** Revokes the organisation's pending invitation to `email`: its link stops working at once. */
export async function revokeInvitation({
  ctx,
  actor,
  ip,
  access,
  email,
}: Actor & { ctx: Pick<Ctx, 'db'>; access: OrgAccess; email: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const revoked = await repo.revokeInvitations(tx, access.orgId, email);
    assert(revoked.length > 0, 'NOT_FOUND', { message: 'No pending invitation for this email.' });
    for (const id of revoked) {
      await auditAs(tx, actor, {
        action: 'invitation.revoke',
        targetType: 'invitation',
        targetId: id,
        orgId: access.orgId,
        ipAddress: ip,
        details: { email },
      });
    }
  });
}

/** Mails the organisation's pending invitation to `email` again with a fresh link; the old one dies. */
export async function resendInvitation({
  ctx,
  actor,
  ip,
  access,
  email,
}: Actor & { ctx: Ctx; access: OrgAccess; email: string }): Promise<void> {
  // The mail names the organisation: a sub-group's id is not where invitations live.
  assert(access.group.parentId === null, 'NOT_FOUND');
  const [existing] = await repo.findPendingInvitationsTo(ctx.db, access.orgId, [email]);
  assert(existing, 'NOT_FOUND', { message: 'No pending invitation for this email.' });
  if (!(await takeMailAllowance(ctx, email))) throw new AppError('RATE_LIMITED');
  const token = newToken();
  const accountId = await findAccountId(ctx.db, email);
  await ctx.db.transaction(async (tx) => {
    const expiresAt = new Date(Date.now() + INVITATION_TOKEN_SECONDS * 1000);
    // Conditional: a link accepted or revoked meanwhile is not brought back.
    assert(await repo.renewInvitationToken(tx, existing.id, { tokenHash: hashToken(token), expiresAt }), 'NOT_FOUND', {
      message: 'No pending invitation for this email.',
    });
    await auditAs(tx, actor, {
      action: 'invitation.resend',
      targetType: 'invitation',
      targetId: existing.id,
      orgId: access.orgId,
      ipAddress: ip,
      details: { email },
    });
  });
  const url = invitationLink(ctx.env.PUBLIC_URL, { email, token, hasAccount: accountId !== null });
  sendInBackground(ctx, invitationEmail({ to: email, url, orgName: access.group.name }));
}
