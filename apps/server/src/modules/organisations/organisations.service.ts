import {
  CONFIGURATION_FIELDS,
  type GroupChanges,
  type GroupMember,
  type OrganisationsPage,
  type OrganisationsQuery,
} from '@patientsim/domain/groups/group-management.schemas';
import { buildPageResult, pageOffset } from '@patientsim/domain/common/page.schemas';
import { displayGroupName, type Group, type GroupMetadata, prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { seatFigures } from '@patientsim/domain/groups/seats';
import { isProductType } from '@patientsim/domain/product/product-types';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { isAdmin, type Role } from '@patientsim/domain/roles/roles';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import type { Database } from '../../db/client.js';
import type { ReadCache } from '../../lib/read-cache.js';
import type { Auth } from '../../identity/auth.js';
import { endUserSessions } from '../../identity/sessions.js';
import { auditAs } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import {
  addGroupMembers,
  findMemberships,
  findUserById,
  findUserSummary,
  countOrganisationMembers,
  removeMembers,
  searchOrganisationMembers,
} from '../users/users.service.js';
import * as repo from './organisations.repository.js';

export {
  countMembers,
  countSeatTakingInvitations,
  findGroupById,
  findGroupsByIds,
  findGroupsOfUser,
  type GroupRow,
} from './organisations.repository.js';

/**
 * An organisation's members who hold a seat (decision 0035): its active members but the subscribed
 * ones, from the counts migration 0005's trigger keeps on its row (exact once the row is locked).
 */
export function seatHoldersOf(row: Pick<repo.GroupRow, 'memberCount' | 'subscribedMemberCount'>): number {
  return row.memberCount - row.subscribedMemberCount;
}

/**
 * The wire shape of spec section 3: metadata as JSON text in `description`. An organisation's seat
 * figures (decision 0035) come with it when its seat-taking pending invitations were counted
 * (`pendingSeatInvitations`, see `toWireGroups`).
 */
export function toWireGroup(row: repo.GroupRow, memberCount: number, pendingSeatInvitations?: number): Group {
  const figures =
    row.parentId === null && pendingSeatInvitations !== undefined
      ? seatFigures(row.seats, { seatHolders: seatHoldersOf(row), pendingSeatInvitations })
      : null;
  const metadata: GroupMetadata = {
    ...(row.parentId ? { parent: row.parentId } : {}),
    ownerId: row.ownerId,
    seats: row.seats,
    memberCount,
    ...(row.parentId ? {} : { seatHolders: seatHoldersOf(row) }),
    ...(figures ? { pendingSeatInvitations: figures.pendingSeatInvitations, openSeats: figures.open } : {}),
    productType: isProductType(row.productType) ? row.productType : 'EMS',
    dev: row.dev,
    testing: row.testing,
    debug: row.debug,
    ai: row.ai,
    inactive: row.inactive,
    ...(row.about ? { about: row.about } : {}),
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
    const wires = await toWireGroups(db, found);
    return found.map((row, index) => ({ row, wire: wires[index] as Group }));
  });
  let rows = all;
  if (actor.id !== userId && actor.role !== 'SUPER_ADMIN') {
    const actorOrgs = new Set(actor.groupsData.filter((g) => g.parent === null && g.role !== 'STUDENT').map((g) => g._id));
    rows = rows.filter(({ row }) => actorOrgs.has(row.parentId ?? row.id));
    if (rows.length === 0) throw new AppError('NOT_FOUND');
  }
  return rows.map(({ wire }) => wire);
}

/**
 * The key owner (organisation) or group admin (sub-group) of the group the request names, or null
 * when it has none; their e-mail address only for a role with org:key-owner:email there.
 */
export async function findKeyOwner({ db, access }: { db: Database; access: OrgAccess }) {
  const owner = access.group.ownerId ? await findUserSummary(db, access.group.ownerId) : null;
  if (!owner) return null;
  if (hasPermission(access.role, 'org:key-owner:email')) return owner;
  const { email: _email, ...withoutEmail } = owner;
  return withoutEmail;
}

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
  await db.transaction(async (tx) => {
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
  cache.clear();
}

type WriteContext = { db: Database; cache: ReadCache; actor: RequestUser; access: OrgAccess; ip: string };

/** Rows in the wire shape, with their member counts and, for organisations, their seat figures. */
async function toWireGroups(db: Database, rows: repo.GroupRow[]): Promise<Group[]> {
  const counts = await repo.countMembers(
    db,
    rows.map((r) => r.id),
  );
  const pending = await repo.countSeatTakingInvitations(
    db,
    rows.filter((r) => r.parentId === null).map((r) => r.id),
  );
  return rows.map((row) => toWireGroup(row, counts.get(row.id) ?? 0, pending.get(row.id) ?? 0));
}

/**
 * GET /extension/groups: every group for the provider's staff, otherwise the caller's own groups.
 */
export async function listGroups({ db, actor }: { db: Database; actor: RequestUser }): Promise<Group[]> {
  const isStaff = hasPermission(actor.role, 'org:configure');
  return toWireGroups(db, isStaff ? await repo.findAllGroups(db) : await repo.findGroupsOfUser(db, actor.id));
}

/**
 * GET /organizations: a page of every organisation for the provider's console, by name, optionally
 * those whose name contains `search`.
 */
export async function listOrganisations({ db, query }: { db: Database; query: OrganisationsQuery }): Promise<OrganisationsPage> {
  const { total, rows } = await repo.findOrganisationsPage(db, {
    term: query.search,
    offset: pageOffset(query),
    limit: query.pageSize,
  });
  return buildPageResult(query, total, await toWireGroups(db, rows));
}

/** The group the request names. */
export async function getGroup({ db, access }: { db: Database; access: OrgAccess }): Promise<Group> {
  return (await toWireGroups(db, [access.group]))[0] as Group;
}

/** The sub-groups of the organisation the request names (none for a sub-group). */
export async function listNestedGroups({ db, access }: { db: Database; access: OrgAccess }): Promise<Group[]> {
  return toWireGroups(db, await repo.findSubgroups(db, access.group.id));
}

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
  const created = await db.transaction(async (tx) => {
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
  cache.clear();
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
  const updated = await db.transaction(async (tx) => {
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
  cache.clear();
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
  await db.transaction(async (tx) => {
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
  cache.clear();
}

/** Deletes sub-groups of the organisation the request names; all of them are its own, or nothing happens. */
export async function deleteNestedGroups({ db, cache, actor, access, ip, groupIds }: WriteContext & { groupIds: string[] }) {
  if (access.group.parentId !== null) throw new AppError('NOT_FOUND');
  const ids = [...new Set(groupIds)];
  const found = await repo.findSubgroupsByIds(db, access.group.id, ids);
  if (found.length !== ids.length)
    throw new AppError('NOT_FOUND', { message: 'One or more groups are not in this organization.' });
  await db.transaction(async (tx) => {
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
  cache.clear();
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
  await db.transaction(async (tx) => {
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
  cache.clear();
}

/**
 * Fuzzy group search: the provider's staff search every group; others the groups of the organisations where they may read the organisation.
 */
export async function searchGroups({ db, actor, term }: { db: Database; actor: RequestUser; term: string }): Promise<Group[]> {
  const isStaff = hasPermission(actor.role, 'org:configure');
  const orgIds = isStaff
    ? null
    : actor.groupsData.filter((g) => g.parent === null && hasPermission(g.role, 'org:read')).map((g) => g._id);
  return toWireGroups(db, await repo.searchGroups(db, term, orgIds));
}

/**
 * Locks an organisation's row for the rest of the caller's transaction and returns it: writes
 * that count against its seats run one at a time (two admins inviting at once cannot both pass).
 */
export async function lockOrganisation(tx: Database, orgId: string): Promise<repo.GroupRow> {
  const row = await repo.lockGroup(tx, orgId);
  if (!row || row.parentId !== null) throw new AppError('NOT_FOUND');
  return row;
}

/** Those of `ids` that are sub-groups of the organisation `orgId`. */
export function findSubgroupsOf(db: Database, orgId: string, ids: readonly string[]): Promise<repo.GroupRow[]> {
  return ids.length === 0 ? Promise.resolve([]) : repo.findSubgroupsByIds(db, orgId, ids);
}

/**
 * Creates an organisation (the provider's staff, when inviting its first users) inside the
 * caller's transaction; the caller audits it with the invitations.
 */
export function createOrganisation(
  tx: Database,
  values: { name: string; productType: string; seats: number; ownerId: string | null },
): Promise<repo.GroupRow> {
  return repo.insertGroup(tx, { id: newId(), parentId: null, ...values });
}

/**
 * An admin joining an organisation that has no key owner becomes it: an organisation the provider
 * creates for a new customer (whose first address has no account yet) gets its key owner when that
 * person accepts. Runs in the joining transaction; a conditional update, so of two admins joining
 * at once only the first is named.
 */
export async function claimVacantKeyOwnership(
  tx: Database,
  { orgId, userId, role }: { orgId: string; userId: string; role: Role },
) {
  if (!isAdmin(role)) return false;
  return repo.setKeyOwnerIfVacant(tx, orgId, userId);
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
