import type { GroupMember } from '@patientsim/domain/groups/group-management.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import type { Role } from '@patientsim/domain/roles/roles';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import type { Database } from '../../db/client.js';
import { changeIdentity, type ReadCache } from '../../lib/read-cache.js';
import type { Auth } from '../../identity/auth.js';
import { endUserSessions } from '../../identity/sessions.js';
import { auditAs } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { countOrganisationMembers, findMemberships, removeMembers, searchOrganisationMembers } from '../users/users.service.js';

/** Who is in a group: leaving it, removing its members, and searching them. */

/**
 * Leave (the caller's own id) or remove members (a role with org:users:remove in the organisation,
 * or the group's owner). The key owner can neither leave nor be removed. Removed from an
 * organisation, a member's sessions end.
 */
export async function removeGroupMembers({
  db,
  auth,
  cache,
  actor,
  access,
  userIds,
  ip,
}: {
  db: Database;
  auth: Auth;
  cache: ReadCache;
  actor: RequestUser;
  access: OrgAccess;
  userIds: string[];
  ip: string;
}) {
  const { group: row, orgId } = access;
  const isLeaving = userIds.length === 1 && userIds[0] === actor.id;
  if (!isLeaving && !hasPermission(access.role, 'org:users:remove') && row.ownerId !== actor.id) {
    throw new AppError('FORBIDDEN');
  }
  if (!isLeaving && access.isInactive && access.role !== 'SUPER_ADMIN') throw new AppError('ORGANIZATION_INACTIVE');
  if (row.ownerId && userIds.includes(row.ownerId) && row.parentId === null) throw new AppError('KEY_OWNER_CANNOT_LEAVE');
  const members = await findMemberships(db, row.id, userIds);
  if (members.length !== new Set(userIds).size)
    throw new AppError('NOT_FOUND', { message: 'One or more users are not members of this group.' });
  // Removed from an organisation, a member's sessions end: no token of theirs outlives it. They end
  // before the removal commits, so that a failure (Redis out of reach) answers 503 with the member
  // still a member, and the retry does the whole job (decision 0036).
  if (!isLeaving && row.parentId === null) await endUserSessions({ auth, cache }, userIds);
  await changeIdentity({ db, cache }, async (tx) => {
    await removeMembers(tx, row, userIds);
    await auditAs(tx, actor, {
      action: isLeaving ? 'group.leave' : 'group.remove-members',
      targetType: 'group',
      targetId: row.id,
      orgId,
      ipAddress: ip,
      details: { userIds },
    });
  });
}

/**
 * Members of the organisation the request names, for adding them to a group or choosing a key
 * owner: by e-mail or name, by role, in or not in the named group; one page of them by name, with
 * how many match in all.
 */
export async function searchGroupMembers({
  db,
  access,
  term,
  role,
  inGroup,
  page,
}: {
  db: Database;
  access: OrgAccess;
  term: string | undefined;
  role: Role | undefined;
  inGroup: boolean | undefined;
  page: { offset: number; limit: number };
}): Promise<{ users: GroupMember[]; total: number }> {
  const isGroupList = inGroup === true && access.group.parentId !== null;
  if (!term && !isGroupList) {
    throw new AppError('VALIDATION_FAILED', { message: 'A search term of at least 3 characters is required.' });
  }
  const search = {
    orgId: access.orgId,
    term,
    role,
    ...(access.group.parentId !== null && inGroup !== undefined ? { groupId: access.group.id, inGroup } : {}),
  };
  const [total, rows] = await Promise.all([
    countOrganisationMembers(db, search),
    searchOrganisationMembers(db, { ...search, ...page }),
  ]);
  return { users: rows, total };
}
