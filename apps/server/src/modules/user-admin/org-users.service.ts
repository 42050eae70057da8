import { buildPageResult, pageOffset, type PageResult } from '@patientsim/domain/common/page.schemas';
import type { OrgMembersQuery, OrgUser } from '@patientsim/domain/users/org-users.schemas';
import type { UpdateOrgUserBody } from '@patientsim/domain/users/org-users.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import { canAssignRole, effectiveRole, ROLE_RANK, type Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { openReclaim, reclaimLink } from '../../identity/email-reclaim.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { changeIdentity } from '../../lib/read-cache.js';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import type { Services } from '../../plugins/app/services.js';
import { emailChangedByOrganisationEmail } from '../../mail/templates.js';
import { finishAddressMove, moveToAddress } from '../account/account.service.js';
import { countEmail } from '../../lib/limits.js';
import { countOpenInvitations, findOpenInvitationsPage } from '../invitations/open-invitations.service.js';
import { findGroupById } from '../organisations/organisations.service.js';
import { findOwnedOrganisationIds } from '../../identity/principals.js';
import {
  findActiveMemberships,
  findGroupMembershipsPage,
  findMemberships,
  findUserById,
  type MembershipFilter,
  organisationIdsOf,
  setMembershipRole,
  updateUser,
} from '../users/users.service.js';

/**
 * One page of the users of an organisation or sub-group (spec sections 2 and 7): its members
 * first, then the organisation's pending and declined invitees (organisation level only: a
 * sub-group is joined after sign-up). `subscribed` keeps subscribed memberships and invitations;
 * `archived` lists removed members only. Paging and search run in the database.
 */
export async function listGroupUsers({
  db,
  access,
  query,
}: {
  db: Database;
  access: OrgAccess;
  query: OrgMembersQuery;
}): Promise<PageResult<OrgUser>> {
  const isOrganisation = access.group.parentId === null;
  const memberFilter: MembershipFilter = { groupId: access.group.id, variant: query.variant, term: query.search };
  const listsInvitations = isOrganisation && query.variant !== 'archived';
  const invitationFilter = { orgId: access.orgId, isSubscribedOnly: query.variant === 'subscribed', term: query.search };
  const offset = pageOffset(query);
  const [{ total: memberTotal, rows: members }, invitationTotal] = await Promise.all([
    findGroupMembershipsPage(db, memberFilter, { offset, limit: query.pageSize }, access.group),
    listsInvitations ? countOpenInvitations(db, invitationFilter) : Promise.resolve(0),
  ]);
  const room = query.pageSize - members.length;
  const invitations =
    listsInvitations && room > 0
      ? await findOpenInvitationsPage(db, invitationFilter, { offset: Math.max(0, offset - memberTotal), limit: room })
      : [];
  const keyOwnerId = isOrganisation ? access.group.ownerId : null;
  const items: OrgUser[] = [
    ...members.map((row) => ({
      user_id: row.userId,
      given_name: row.givenName,
      family_name: row.familyName,
      email: row.email,
      role: effectiveRole(row.globalRole, row.memberRole),
      deleted: row.removedAt !== null || row.deletedAt !== null,
      pending: false,
      declined: false,
      subscribed: row.subscribed,
      key_owner: row.userId === keyOwnerId,
    })),
    ...invitations.map((row) => ({
      user_id: null,
      given_name: '',
      family_name: '',
      email: row.email,
      role: row.role,
      deleted: false,
      pending: row.status === 'pending',
      declined: row.status === 'declined',
      subscribed: row.throughSubscription,
      key_owner: false,
    })),
  ];
  return buildPageResult(query, memberTotal + invitationTotal, items);
}

type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/**
 * Whether an organisation may move this member to another address (decision 0033): only an
 * account that belongs to the organisation alone, ranks strictly below the actor there, owns no
 * organisation and holds no provider role. Anyone else is out of its reach: their address is theirs
 * to change, with their password. Answers the organisations the account belongs to.
 */
async function assertEmailInReach(
  db: Database,
  { access, target, targetRole }: { access: OrgAccess; target: UserRow; targetRole: Role },
): Promise<string[]> {
  const [memberships, ownedOrganisations] = await Promise.all([
    findActiveMemberships(db, target.id),
    findOwnedOrganisationIds(db, target.id),
  ]);
  const organisations = organisationIdsOf(memberships);
  const isOrganisationsOwn = organisations.every((orgId) => orgId === access.orgId);
  const hasProviderRole = target.role === 'SUPER_ADMIN' || memberships.some((membership) => membership.role === 'SUPER_ADMIN');
  const isBelowActor = ROLE_RANK[targetRole] < ROLE_RANK[access.role];
  assert(isOrganisationsOwn && isBelowActor && ownedOrganisations.length === 0 && !hasProviderRole, 'MEMBER_EMAIL_LOCKED');
  return organisations;
}

const ROLE_IN_NOTICE: Record<Role, string> = {
  STUDENT: 'a student of',
  USER: 'an instructor of',
  ADMIN: 'an admin of',
  SUPER_ADMIN: 'a PatientSim super administrator working in',
};

/** Who changed the address, as the notice to the old address says it: "an admin of {organisation}, {name} ({e-mail})". */
async function describeChange(db: Database, { actor, access }: { actor: RequestUser; access: OrgAccess }): Promise<string> {
  const [person, organisation] = await Promise.all([
    findUserById(db, actor.id),
    access.group.parentId === null ? access.group : findGroupById(db, access.orgId),
  ]);
  const email = person?.email ?? actor.email;
  const name = person ? `${person.givenName} ${person.familyName}`.trim() : '';
  const orgName = displayGroupName(organisation?.name ?? '');
  return `${ROLE_IN_NOTICE[access.role]} ${orgName}, ${name ? `${name} (${email})` : email}`;
}

/**
 * An admin's (or instructor's) edit of a member of their organisation (spec sections 3 and 5):
 * names, e-mail and the role there. Members ranked above the actor are out of reach; a role change
 * needs org:users:edit-role and stays within the actor's rank; the key owner's role is lowered by
 * nobody but the key owner. A new address needs no password but only reaches accounts within the
 * organisation's reach (`assertEmailInReach`), counts toward the mail limits, ends the member's
 * sessions, must be verified, and leaves the old address a 30-day link to take the account back
 * (decisions 0012 and 0033). A refused part refuses the whole request.
 */
export async function updateOrgUser({
  ctx,
  actor,
  access,
  userId,
  changes,
  ip,
}: {
  ctx: Pick<Services, 'db' | 'auth' | 'limiter' | 'cache' | 'mailer' | 'env' | 'verificationTokens'>;
  actor: RequestUser;
  access: OrgAccess;
  userId: string;
  changes: UpdateOrgUserBody;
  ip: string;
}): Promise<{ ok: true }> {
  const [membership] = await findMemberships(ctx.db, access.orgId, [userId]);
  const current = membership ? await findUserById(ctx.db, userId) : null;
  // Not a member here: the same answer as for a user who does not exist (never reveal others).
  if (!membership || !current || current.deletedAt) throw new AppError('NOT_FOUND');
  const currentRole = effectiveRole(current.role, membership.role);
  assert(canAssignRole(access.role, currentRole), 'FORBIDDEN');
  const newRole = changes.role !== undefined && changes.role !== currentRole ? changes.role : null;
  if (newRole) {
    assert(hasPermission(access.role, 'org:users:edit-role'), 'FORBIDDEN');
    if (!canAssignRole(access.role, newRole)) {
      throw new AppError('FORBIDDEN', { message: 'You cannot give a role above your own.' });
    }
    const isKeyOwner = access.group.parentId === null ? access.group.ownerId === userId : false;
    if (isKeyOwner && actor.id !== userId && ROLE_RANK[newRole] < ROLE_RANK[currentRole]) {
      throw new AppError('KEY_OWNER_ROLE_LOCKED');
    }
  }
  const newEmail = changes.email !== undefined && changes.email !== current.email ? changes.email : null;
  const lastProven = current.emailVerified ? current.email : current.previousEmail;
  let auditOrganisations = [access.orgId];
  let changedBy = '';
  if (newEmail) {
    auditOrganisations = [
      access.orgId,
      ...(await assertEmailInReach(ctx.db, { access, target: current, targetRole: currentRole })),
    ];
    // Both addresses hear of the change: each counts toward its own limit.
    await countEmail(ctx, 'verify', newEmail, ip);
    if (lastProven) await countEmail(ctx, 'address-changed', lastProven);
    changedBy = await describeChange(ctx.db, { actor, access });
  }
  const names = {
    ...(changes.given_name !== undefined ? { givenName: changes.given_name } : {}),
    ...(changes.family_name !== undefined ? { familyName: changes.family_name } : {}),
  };
  const fields = [...Object.keys(names), ...(newRole ? ['role'] : []), ...(newEmail ? ['email'] : [])];
  // Names, role, address, its reclaim link and the audit events commit together or not at all.
  const { move, reclaim } = await changeIdentity(ctx, async (tx) => {
    if (Object.keys(names).length > 0) {
      const givenName = names.givenName ?? current.givenName;
      const familyName = names.familyName ?? current.familyName;
      await updateUser(tx, userId, { ...names, name: `${givenName} ${familyName}`.trim() });
    }
    if (newRole) await setMembershipRole(tx, { groupId: access.orgId, userId, role: newRole });
    const addressMove = newEmail ? await moveToAddress(tx, current, newEmail) : null;
    const opened =
      newEmail && addressMove && !addressMove.isBackToProven && lastProven
        ? await openReclaim(tx, { userId, email: lastProven, newEmail, changedById: actor.id, orgId: access.orgId, changedBy })
        : null;
    await auditAs(tx, actor, {
      orgIds: auditOrganisations,
      action: 'org.user.update',
      targetType: 'user',
      targetId: userId,
      ipAddress: ip,
      details: { fields, ...(newRole ? { from: currentRole, to: newRole } : {}) },
    });
    return { move: addressMove, reclaim: opened };
  });
  if (newEmail) {
    await finishAddressMove({
      ctx,
      current,
      newEmail,
      move,
      ...(reclaim
        ? {
            notice: (to: string) =>
              emailChangedByOrganisationEmail({
                to,
                newEmail,
                changedBy,
                url: reclaimLink(ctx.env.PUBLIC_URL, reclaim.token),
                expiresAt: reclaim.expiresAt,
              }),
          }
        : {}),
    });
  }
  return { ok: true };
}
