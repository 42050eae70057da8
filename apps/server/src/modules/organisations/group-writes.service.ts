import { CONFIGURATION_FIELDS, type GroupChanges } from '@patientsim/domain/groups/group-management.schemas';
import { displayGroupName, type Group, prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { isAdmin } from '@patientsim/domain/roles/roles';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import type { Database } from '../../db/client.js';
import { auditAs } from '../../lib/audit.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { addGroupMembers, findMemberships, findUserById } from '../users/users.service.js';
import * as repo from './organisations.repository.js';
import { toWireGroup, toWireGroups, type WriteContext } from './organisations.service.js';

/**
 * Creating, changing and deleting groups: an organisation's settings and its sub-groups, each
 * write audited, the identity cache cleared once it commits (changeIdentity).
 */

/** Admins manage every sub-group of their organisation; a sub-group's owner manages that one. */
function canManageSubgroup(actor: RequestUser, access: OrgAccess): boolean {
  return hasPermission(access.role, 'org:groups:manage') || access.group.ownerId === actor.id;
}

function requireSubgroup(row: repo.GroupRow): asserts row is repo.GroupRow & { parentId: string } {
  if (row.parentId === null) throw new AppError('SUBGROUP_REQUIRED');
}

/** Refuses a sub-group name already used in the organisation, naming it without its prefix. */
async function assertNameFree(db: Database, parentId: string, name: string, exceptId?: string) {
  if (await repo.findSubgroupByName(db, parentId, name, exceptId)) {
    throw new AppError('GROUP_NAME_TAKEN', {
      message: `A group named '${displayGroupName(name)}' already exists in this organization.`,
    });
  }
}

/**
 * Creates a sub-group of the organisation the request names, stored with the parent prefix
 * (decision 10), owned by its creator.
 */
export async function createGroup({ db, cache, actor, access, ip, name }: WriteContext & { name: string }): Promise<Group> {
  if (access.group.parentId !== null) {
    throw new AppError('VALIDATION_FAILED', { message: 'A group can only be created inside an organization.' });
  }
  const storedName = prefixSubgroupName(access.orgId, name);
  const created = await changeIdentity({ db, cache }, async (tx) => {
    await assertNameFree(tx, access.orgId, storedName);
    const row = await repo.insertGroup(tx, {
      id: newId(),
      name: storedName,
      parentId: access.orgId,
      ownerId: actor.id,
      productType: access.group.productType,
    });
    await auditAs(tx, actor, {
      action: 'group.create',
      targetType: 'group',
      targetId: row.id,
      orgId: access.orgId,
      ipAddress: ip,
      details: { name: storedName },
    });
    return row;
  });
  return toWireGroup(created, 0);
}

/** The role a member holds in an organisation (their org-specific role, else their global one). */
async function memberRole(db: Database, orgId: string, userId: string) {
  const [membership] = await findMemberships(db, orgId, [userId]);
  if (!membership) return null;
  if (membership.role) return membership.role;
  return (await findUserById(db, userId))?.role ?? null;
}

/**
 * Changes a group's name and/or metadata (spec 7, PATCH /extension/groups/{id}).
 * - Sub-group: name, description and group admin by an admin or its owner; the new owner is a member of the organisation.
 * - Organisation: name and description by its key owner or org:update; key owner by the key owner or org:configure,
 *   only to an admin member.
 * - Seats, product type, flags and status: org:configure only, refused whole for anyone else.
 */
export async function updateGroup({
  db,
  cache,
  actor,
  access,
  ip,
  name,
  changes,
}: WriteContext & { name: string | undefined; changes: GroupChanges }): Promise<Group> {
  const row = access.group;
  const isSubgroup = row.parentId !== null;
  const isKeyOwner = !isSubgroup && row.ownerId === actor.id;
  const canConfigure = hasPermission(access.role, 'org:configure');
  const configured = CONFIGURATION_FIELDS.filter((field) => changes[field] !== undefined);
  if (name === undefined && changes.about === undefined && changes.ownerId === undefined && configured.length === 0) {
    throw new AppError('VALIDATION_FAILED', { message: 'Nothing to change.' });
  }
  if (configured.length > 0 && !canConfigure) {
    throw new AppError('FORBIDDEN', { message: `Only the provider can change ${configured.join(', ')}.` });
  }
  if (name !== undefined || changes.about !== undefined) {
    const mayRename = isSubgroup ? canManageSubgroup(actor, access) : isKeyOwner || hasPermission(access.role, 'org:update');
    if (!mayRename) throw new AppError('FORBIDDEN');
  }
  if (changes.ownerId !== undefined && changes.ownerId !== row.ownerId) {
    const mayChangeOwner = isSubgroup ? canManageSubgroup(actor, access) : isKeyOwner || canConfigure;
    if (!mayChangeOwner) throw new AppError('FORBIDDEN');
    const role = await memberRole(db, access.orgId, changes.ownerId);
    if (role === null) throw new AppError('NOT_FOUND', { message: 'The new owner is not a member of this organization.' });
    if (!isSubgroup && !isAdmin(role)) throw new AppError('KEY_OWNER_MUST_BE_ADMIN');
  }
  const storedName = name === undefined ? undefined : isSubgroup ? prefixSubgroupName(access.orgId, name) : name;
  const updated = await changeIdentity({ db, cache }, async (tx) => {
    if (storedName !== undefined && isSubgroup) await assertNameFree(tx, access.orgId, storedName, row.id);
    const values = {
      ...(storedName === undefined ? {} : { name: storedName }),
      ...(changes.about === undefined ? {} : { about: changes.about }),
      ...(changes.ownerId === undefined ? {} : { ownerId: changes.ownerId }),
      ...Object.fromEntries(configured.map((field) => [field, changes[field]])),
    };
    const result = await repo.updateGroup(tx, row.id, values);
    if (!result) throw new AppError('NOT_FOUND');
    await auditAs(tx, actor, {
      action: changes.ownerId !== undefined && changes.ownerId !== row.ownerId ? 'group.change-owner' : 'group.update',
      targetType: 'group',
      targetId: row.id,
      orgId: access.orgId,
      ipAddress: ip,
      details: { before: pick(row, Object.keys(values)), after: values },
    });
    return result;
  });
  // Names, product type, status and key ownership are in the claims and groups of every member.
  return (await toWireGroups(db, [updated]))[0] as Group;
}

function pick(row: repo.GroupRow, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, row[key as keyof repo.GroupRow]]));
}

/** Deletes the sub-group the request names (an admin or its owner). */
export async function deleteGroup({ db, cache, actor, access, ip }: WriteContext): Promise<void> {
  const row = access.group;
  if (!canManageSubgroup(actor, access)) throw new AppError('FORBIDDEN');
  requireSubgroup(row);
  await changeIdentity({ db, cache }, async (tx) => {
    await repo.deleteGroups(tx, [row.id]);
    await auditAs(tx, actor, {
      action: 'group.delete',
      targetType: 'group',
      targetId: row.id,
      targetName: displayGroupName(row.name),
      orgId: access.orgId,
      ipAddress: ip,
      details: { name: row.name },
    });
  });
}

/** Deletes sub-groups of the organisation the request names; all of them are its own, or nothing happens. */
export async function deleteNestedGroups({ db, cache, actor, access, ip, groupIds }: WriteContext & { groupIds: string[] }) {
  if (access.group.parentId !== null) throw new AppError('NOT_FOUND');
  const ids = [...new Set(groupIds)];
  const found = await repo.findSubgroupsByIds(db, access.group.id, ids);
  if (found.length !== ids.length)
    throw new AppError('NOT_FOUND', { message: 'One or more groups are not in this organization.' });
  await changeIdentity({ db, cache }, async (tx) => {
    await repo.deleteGroups(tx, ids);
    await auditAs(tx, actor, {
      action: 'group.delete',
      targetType: 'group',
      targetName: found.map((g) => displayGroupName(g.name)).join(', '),
      orgId: access.orgId,
      ipAddress: ip,
      details: { groups: found.map((g) => ({ id: g.id, name: g.name })) },
    });
  });
}

/** Adds members of the organisation to the sub-group the request names (an admin or its owner). */
export async function addMembersToGroup({ db, cache, actor, access, ip, userIds }: WriteContext & { userIds: string[] }) {
  const row = access.group;
  if (!canManageSubgroup(actor, access)) throw new AppError('FORBIDDEN');
  requireSubgroup(row);
  const ids = [...new Set(userIds)];
  const members = await findMemberships(db, access.orgId, ids);
  if (members.length !== ids.length) {
    throw new AppError('NOT_FOUND', { message: 'One or more users are not members of this organization.' });
  }
  await changeIdentity({ db, cache }, async (tx) => {
    // A subscribed member of the organisation is a subscribed member of its groups too.
    await addGroupMembers(
      tx,
      row.id,
      members.map(({ userId, subscribed }) => ({ userId, subscribed })),
    );
    await auditAs(tx, actor, {
      action: 'group.add-members',
      targetType: 'group',
      targetId: row.id,
      orgId: access.orgId,
      ipAddress: ip,
      details: { userIds: ids },
    });
  });
}
