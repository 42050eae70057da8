import { buildPageResult, pageOffset, type PageResult } from '@patientsim/domain/common/page.schemas';
import type { OrgMembersQuery, OrgUser } from '@patientsim/domain/users/org-users.schemas';
import type { UpdateOrgUserBody } from '@patientsim/domain/users/org-users.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { canAssignRole, effectiveRole, isRole, ROLE_RANK, type Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import type { RequestUser } from '../../plugins/app/authenticate.js';
import type { OrgAccess } from '../../plugins/app/org-access.js';
import type { Services } from '../../plugins/app/services.js';
import { finishAddressMove, moveToAddress } from '../account/account.service.js';
import { countOpenInvitations, findOpenInvitationsPage } from '../invitations/open-invitations.service.js';
import {
  findGroupMembershipsPage,
  findMemberships,
  findUserById,
  type MembershipFilter,
  setMembershipRole,
  updateUser,
} from './users.repository.js';

function asRole(value: string | null | undefined): Role | null {
  return isRole(value) ? value : null;
}

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
      role: effectiveRole(asRole(row.globalRole) ?? 'STUDENT', asRole(row.memberRole)),
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
      role: asRole(row.role) ?? 'STUDENT',
      deleted: false,
      pending: row.status === 'pending',
      declined: row.status === 'declined',
      subscribed: row.throughSubscription,
      key_owner: false,
    })),
  ];
  return buildPageResult(query, memberTotal + invitationTotal, items);
}

/**
 * An admin's (or instructor's) edit of a member of their organisation (spec sections 3 and 5):
 * names, e-mail (decision 0012: no password needed for a member's address, but the member's
 * sessions end and the new address must be verified) and the role there. Members ranked above the
 * actor are out of reach; a role change needs org:users:edit-role and stays within the actor's
 * rank; the key owner's role is lowered by nobody but the key owner.
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
  const currentRole = effectiveRole(asRole(current.role) ?? 'STUDENT', asRole(membership.role));
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
  const names = {
    ...(changes.given_name !== undefined ? { givenName: changes.given_name } : {}),
    ...(changes.family_name !== undefined ? { familyName: changes.family_name } : {}),
  };
  const fields = [...Object.keys(names), ...(newRole ? ['role'] : []), ...(newEmail ? ['email'] : [])];
  // Names, role, address and the audit event commit together or not at all.
  const move = await ctx.db.transaction(async (tx) => {
    if (Object.keys(names).length > 0) {
      const givenName = names.givenName ?? current.givenName;
      const familyName = names.familyName ?? current.familyName;
      await updateUser(tx, userId, { ...names, name: `${givenName} ${familyName}`.trim() });
    }
    if (newRole) await setMembershipRole(tx, { groupId: access.orgId, userId, role: newRole });
    const addressMove = newEmail ? await moveToAddress(tx, current, newEmail) : null;
    await auditAs(tx, actor, {
      action: 'org.user.update',
      targetType: 'user',
      targetId: userId,
      orgId: access.orgId,
      ipAddress: ip,
      details: { fields, ...(newRole ? { from: currentRole, to: newRole } : {}) },
    });
    return addressMove;
  });
  ctx.cache.clear();
  if (newEmail) await finishAddressMove({ ctx, current, newEmail, move });
  return { ok: true };
}
