import { hasPermission } from '@patientsim/domain/roles/permissions';
import { effectiveRole } from '@patientsim/domain/roles/roles';
import {
  type ArchivedUsersQuery,
  type ArchivedUsersResult,
  type FetchAllUsersQuery,
  type FetchAllUsersResult,
  type FoundUserList,
  USER_ID_LOOKUP_MAX,
  USER_SEARCH_LIMIT,
  type UserLookupQuery,
  type UserSummaryList,
} from '@patientsim/domain/users/users.schemas';
import type { Database } from '../../db/client.js';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import { findGroupMembershipsPage, type MembershipFilter } from './member-list.repository.js';
import {
  countAllUsersMatching,
  countOrganisationMembers,
  countUsers,
  findUserSummaries,
  findUsersPage,
  searchAllUsers,
  searchOrganisationMembers,
} from './user-search.repository.js';

type Named = { family_name: string; given_name: string; email: string };

/** By family name, given name, then e-mail (unique): the order searches answer in. */
function byName(a: Named, b: Named): number {
  return (
    a.family_name.localeCompare(b.family_name, 'en') ||
    a.given_name.localeCompare(b.given_name, 'en') ||
    (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)
  );
}

/** The provider's staff see every user. */
function isProviderStaff(actor: RequestUser): boolean {
  return hasPermission(actor.role, 'users:read-all');
}

/**
 * GET /fetchall/users: one page of the users of the group `access` names, by name (members, and
 * with `includeDeleted` also removed members and deleted accounts, flagged `deleted`), or of every
 * account, by e-mail, for the provider's staff (`access` null). Users are accounts here: invitees
 * without one are not listed, so every user has a creation time. Paged in the database.
 */
export async function fetchAllUsers({
  db,
  access,
  query,
}: {
  db: Database;
  access: OrgAccess | null;
  query: FetchAllUsersQuery;
}): Promise<FetchAllUsersResult> {
  const page = { offset: query.offset, limit: query.count };
  if (!access) {
    const filter = { includesDeleted: query.includeDeleted };
    const [total, rows] = await Promise.all([countUsers(db, filter), findUsersPage(db, filter, page)]);
    const users = rows.map((row) => ({
      user_id: row.userId,
      email: row.email,
      given_name: row.givenName,
      family_name: row.familyName,
      role: row.globalRole,
      deleted: row.deletedAt !== null,
      created_at: row.createdAt.toISOString(),
    }));
    return { data: { users, total } };
  }
  const filter: MembershipFilter = {
    groupId: access.group.id,
    variant: query.includeDeleted ? 'everyone' : 'all',
    hidesDeletedAccounts: !query.includeDeleted,
  };
  const { total, rows } = await findGroupMembershipsPage(db, filter, page);
  const users = rows.map((row) => {
    const globalRole = row.globalRole;
    return {
      user_id: row.userId,
      email: row.email,
      given_name: row.givenName,
      family_name: row.familyName,
      role: query.overrideRole ? effectiveRole(globalRole, row.memberRole) : globalRole,
      deleted: row.removedAt !== null || row.deletedAt !== null,
      created_at: row.createdAt.toISOString(),
    };
  });
  return { data: { users, total } };
}

/**
 * GET /users: users by a search over e-mail and names, or by id (case owners, looked up 50 at a
 * time). Who is visible: the provider's staff see every user; anyone else only the people of the
 * organisations whose members they may read there (org:members:read: admins and instructors,
 * spec section 6 and decision 3), members and removed members alike. Ids of anyone else are
 * simply not answered, so the call never reveals another organisation's people. A search answers
 * at most USER_SEARCH_LIMIT users (which ones, for a common term: see SearchOrder), by name.
 */
export async function lookUpUsers({
  db,
  actor,
  query,
}: {
  db: Database;
  actor: RequestUser;
  query: UserLookupQuery;
}): Promise<UserSummaryList> {
  const orgIds = isProviderStaff(actor)
    ? null
    : actor.groupsData
        .filter((entry) => entry.parent === null && hasPermission(entry.role, 'org:members:read'))
        .map((entry) => entry._id);
  const rows = await findUserSummaries(db, {
    ids: query.user_id,
    term: query.q,
    orgIds,
    limit: query.user_id ? USER_ID_LOOKUP_MAX : USER_SEARCH_LIMIT,
  });
  return {
    users: rows.map(({ deletedAt, ...row }) => ({ ...row, deleted: deletedAt !== null })).sort(byName),
  };
}

/**
 * GET /search/users: one page (`offset`, `count`) of the members of the group `access` names whose
 * e-mail or names contain `term`, with their role there, or of every account (the provider's staff,
 * `access` null) with its global role; by family name, given name and e-mail, with the number of
 * matches. Within a group the matches are read on the membership rows' listing index (decision
 * 0014), across every account on the trigram indexes. Every match is reachable on some page: a
 * search never drops users because more matched than one answer holds.
 */
export async function searchUsers({
  db,
  access,
  term,
  page,
  includeDeleted = false,
}: {
  db: Database;
  access: OrgAccess | null;
  term: string;
  page: { offset: number; limit: number };
  /** Across every account only: deleted accounts too, flagged `deleted`. */
  includeDeleted?: boolean;
}): Promise<FoundUserList> {
  if (access) {
    const search = {
      orgId: access.orgId,
      term,
      ...(access.group.parentId !== null ? { groupId: access.group.id, inGroup: true } : {}),
    };
    const [total, rows] = await Promise.all([
      countOrganisationMembers(db, search),
      searchOrganisationMembers(db, { ...search, ...page }),
    ]);
    return { users: rows, total };
  }
  const [total, rows] = await Promise.all([
    countAllUsersMatching(db, { term, includesDeleted: includeDeleted }),
    searchAllUsers(db, { term, ...page, includesDeleted: includeDeleted }),
  ]);
  return {
    users: rows.map(({ deletedAt, ...row }) => ({
      ...row,
      role: row.role,
      ...(includeDeleted ? { deleted: deletedAt !== null } : {}),
    })),
    total,
  };
}

/**
 * GET /archived-users: one page of the removed members of the group `access` names (spec: removed
 * users keep their data and appear in the archived view). The spec's "regex filter" is matched as
 * a literal substring of e-mail and names: a user-supplied regular expression is never run, in the
 * database or here, since one can take unbounded time.
 */
export async function listArchivedUsers({
  db,
  access,
  query,
}: {
  db: Database;
  access: OrgAccess;
  query: ArchivedUsersQuery;
}): Promise<ArchivedUsersResult> {
  const filter: MembershipFilter = { groupId: access.group.id, variant: 'archived', term: query.filter };
  const page = { offset: query.offset, limit: query.count };
  const { total, rows } = await findGroupMembershipsPage(db, filter, page);
  // The archived variant lists memberships with a removal time only.
  const archivedusers = rows.flatMap(({ removedAt, ...row }) =>
    removedAt
      ? [
          {
            user_id: row.userId,
            email: row.email,
            given_name: row.givenName,
            family_name: row.familyName,
            role: effectiveRole(row.globalRole, row.memberRole),
            removed_at: removedAt.toISOString(),
            deleted: row.deletedAt !== null,
          },
        ]
      : [],
  );
  return { archivedusers, total };
}
