import type { Group, GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { isProductType } from '@patientsim/domain/product/product-types';
import type { RequestUser } from '../../plugins/app/authenticate.js';
import type { Database } from '../../db/client.js';
import type { ReadCache } from '../../lib/read-cache.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './groups.repository.js';

/** The wire shape of spec section 3: metadata as JSON text in `description`. */
export function toWireGroup(row: repo.GroupRow, memberCount: number): Group {
  const metadata: GroupMetadata = {
    ...(row.parentId ? { parent: row.parentId } : {}),
    ownerId: row.ownerId,
    seats: row.seats,
    memberCount,
    productType: isProductType(row.productType) ? row.productType : 'EMS',
    dev: row.dev,
    testing: row.testing,
    debug: row.debug,
    ai: row.ai,
    inactive: row.inactive,
  };
  return { _id: row.id, name: row.name, description: JSON.stringify(metadata), owner: row.ownerId };
}

/**
 * The groups of a user. Anyone sees their own; a super admin sees anyone's; an admin or instructor
 * sees those of a member of their organisations, limited to groups inside them. Anyone else gets
 * NOT_FOUND (never reveal another organisation's data).
 */
export async function listUserGroups({
  db,
  cache,
  actor,
  userId,
}: {
  db: Database;
  cache: ReadCache;
  actor: RequestUser;
  userId: string;
}): Promise<Group[]> {
  const all = await cache.get(`groups:${userId}`, async () => {
    const found = await repo.findGroupsOfUser(db, userId);
    const counts = await repo.countMembers(
      db,
      found.map((r) => r.id),
    );
    return found.map((row) => ({ row, wire: toWireGroup(row, counts.get(row.id) ?? 0) }));
  });
  let rows = all;
  if (actor.id !== userId && actor.role !== 'SUPER_ADMIN') {
    const actorOrgs = new Set(actor.groupsData.filter((g) => g.parent === null && g.role !== 'STUDENT').map((g) => g._id));
    rows = rows.filter(({ row }) => actorOrgs.has(row.parentId ?? row.id));
    if (rows.length === 0) throw new AppError('NOT_FOUND');
  }
  return rows.map(({ wire }) => wire);
}

/** The organisation a group belongs to (itself for an organisation). */
const organisationOf = (row: repo.GroupRow) => row.parentId ?? row.id;

/** The actor's role in the organisation of `row`, or null when not a member there. */
function roleIn(actor: RequestUser, row: repo.GroupRow) {
  if (actor.role === 'SUPER_ADMIN' && !actor.act) return 'SUPER_ADMIN' as const;
  return actor.groupsData.find((g) => g._id === organisationOf(row) && g.parent === null)?.role ?? null;
}

/** A group the actor may see: a member of its organisation, or a super admin. Else NOT_FOUND. */
export async function findVisibleGroup({ db, actor, groupId }: { db: Database; actor: RequestUser; groupId: string }) {
  const row = await repo.findGroupById(db, groupId);
  if (!row || roleIn(actor, row) === null) throw new AppError('NOT_FOUND');
  return row;
}

/** The key owner (organisation) or group admin (sub-group). */
export async function findKeyOwner({ db, actor, groupId }: { db: Database; actor: RequestUser; groupId: string }) {
  const row = await findVisibleGroup({ db, actor, groupId });
  const owner = row.ownerId ? await repo.findUserSummary(db, row.ownerId) : null;
  if (!owner) throw new AppError('NOT_FOUND', { message: 'This group has no key owner.' });
  return owner;
}

/**
 * Leave (the caller's own id) or remove members (admins of the organisation, or a super admin).
 * The key owner can neither leave nor be removed.
 */
export async function removeGroupMembers({
  db,
  cache,
  actor,
  groupId,
  userIds,
  ip,
}: {
  db: Database;
  cache: ReadCache;
  actor: RequestUser;
  groupId: string;
  userIds: string[];
  ip: string;
}) {
  const row = await findVisibleGroup({ db, actor, groupId });
  const isLeaving = userIds.length === 1 && userIds[0] === actor.id;
  if (!isLeaving) {
    const role = roleIn(actor, row);
    if (role !== 'ADMIN' && role !== 'SUPER_ADMIN' && row.ownerId !== actor.id) throw new AppError('FORBIDDEN');
  }
  if (row.ownerId && userIds.includes(row.ownerId) && row.parentId === null) throw new AppError('KEY_OWNER_CANNOT_LEAVE');
  const members = await repo.findMemberships(db, groupId, userIds);
  if (members.length !== new Set(userIds).size)
    throw new AppError('NOT_FOUND', { message: 'One or more users are not members of this group.' });
  await repo.removeMembers(db, row, userIds);
  cache.clear();
  await audit(db, {
    actorId: actor.id,
    onBehalfOfId: actor.act?.sub ?? null,
    action: isLeaving ? 'group.leave' : 'group.remove-members',
    targetType: 'group',
    targetId: groupId,
    orgId: organisationOf(row),
    ipAddress: ip,
    details: { userIds },
  });
}
