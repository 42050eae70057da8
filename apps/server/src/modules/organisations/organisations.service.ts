import type { OrganisationsPage, OrganisationsQuery } from '@patientsim/domain/groups/group-management.schemas';
import { buildPageResult, pageOffset } from '@patientsim/domain/common/page.schemas';
import type { Group, GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { seatFigures } from '@patientsim/domain/groups/seats';
import { isProductType } from '@patientsim/domain/product/product-types';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { isAdmin, type Role } from '@patientsim/domain/roles/roles';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import type { Database } from '../../db/client.js';
import type { ReadCache } from '../../lib/read-cache.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { findUserSummary } from '../users/users.service.js';
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

/** Rows in the wire shape, with their member counts and, for organisations, their seat figures. */
export async function toWireGroups(db: Database, rows: repo.GroupRow[]): Promise<Group[]> {
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

/** The context of a write to groups: who, in which organisation, from where. */
export type WriteContext = { db: Database; cache: ReadCache; actor: RequestUser; access: OrgAccess; ip: string };
