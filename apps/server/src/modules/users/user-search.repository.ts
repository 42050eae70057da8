/** Searches over users and members, and the provider's directory of every account. */
import { and, asc, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { groupMember } from '../../db/schema/groups.js';

/** `%term%` with LIKE's own wildcards (`%`, `_` and its escape character) taken literally. */
export function escapeLike(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** E-mail, given name or family name contains `term` (wildcard-wrapped ILIKE, on the trigram indexes). */
function matchesUser(term: string) {
  const pattern = escapeLike(term);
  return or(ilike(user.email, pattern), ilike(user.givenName, pattern), ilike(user.familyName, pattern));
}

/**
 * The same match on a membership's copies of its user's e-mail and names, evaluated on a group's
 * own rows of `group_member_listing_idx`: the work is bounded by the group, not by every user who
 * matches anywhere. ILIKE lower-cases both sides, so LIKE on the lower-cased `user_search` (the
 * three copies, one per line) answers the same; a term with a line break could span two of them
 * there, so it is matched on each copy.
 */
export function matchesMember(term: string) {
  const pattern = escapeLike(term);
  if (term.includes('\n')) {
    return or(
      ilike(groupMember.userEmail, pattern),
      ilike(groupMember.userGivenName, pattern),
      ilike(groupMember.userFamilyName, pattern),
    );
  }
  return sql`${groupMember.userSearch} like lower(${pattern})`;
}

/**
 * Which matches of a search answer when more than `limit` match: the first by name (every match is
 * read and sorted), or the first by user id, where the database stops after `limit` matches when a
 * term is common (walking the primary key) and starts from the trigram indexes when it is rare.
 */
export type SearchOrder = 'name' | 'id';

type MemberSearch = {
  orgId: string;
  term?: string | undefined;
  role?: string | undefined;
  groupId?: string;
  inGroup?: boolean;
};

const memberRoleSql = sql<Role>`coalesce(${groupMember.role}, ${user.role})`;

/**
 * The membership's account is not deleted, asked of the few deleted accounts (`user_deleted_idx`):
 * joining every matching membership to its account cost a lookup each (or a scan of every user)
 * for a term that thousands of an organisation's members match.
 */
const accountNotDeleted = sql`not exists (select 1 from ${user} as deleted where deleted.id = ${groupMember.userId} and deleted.deleted_at is not null)`;

/**
 * The conditions of a member search (see searchOrganisationMembers), over groupMember (joined to
 * user only when `role` is given).
 */
function memberSearchWhere({ orgId, term, role, groupId, inGroup }: MemberSearch) {
  const inGroupSql = groupId
    ? sql`exists (select 1 from ${groupMember} as g2 where g2.group_id = ${groupId} and g2.user_id = ${groupMember.userId} and g2.removed_at is null)`
    : undefined;
  return and(
    eq(groupMember.groupId, orgId),
    isNull(groupMember.removedAt),
    accountNotDeleted,
    term ? matchesMember(term) : undefined,
    role ? sql`${memberRoleSql} = ${role}` : undefined,
    inGroupSql && inGroup !== undefined ? (inGroup ? inGroupSql : sql`not ${inGroupSql}`) : undefined,
  );
}

/**
 * Active members of an organisation, optionally only those whose e-mail or names contain `term`
 * (matched on the organisation's memberships, see matchesMember), whose role there is `role`, and
 * who are (or are not) members of `groupId`; `limit` of them from `offset`.
 */
export function searchOrganisationMembers(
  db: Database,
  {
    limit,
    offset = 0,
    order = 'name',
    ...search
  }: MemberSearch & {
    limit: number;
    offset?: number;
    order?: SearchOrder;
  },
) {
  return db
    .select({
      user_id: user.id,
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      role: memberRoleSql,
    })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(memberSearchWhere(search))
    .orderBy(
      ...(order === 'id'
        ? [asc(groupMember.userId)]
        : [asc(groupMember.userFamilyName), asc(groupMember.userGivenName), asc(groupMember.userEmail), asc(groupMember.userId)]),
    )
    .offset(offset)
    .limit(limit);
}

/**
 * How many members a member search matches (searchOrganisationMembers without its page): the
 * memberships alone, unless the role (which may be the account's) is asked for.
 */
export async function countOrganisationMembers(db: Database, search: MemberSearch): Promise<number> {
  const memberships = db.select({ count: sql<number>`count(*)::int` }).from(groupMember).$dynamic();
  const [row] = await (search.role ? memberships.innerJoin(user, eq(user.id, groupMember.userId)) : memberships).where(
    memberSearchWhere(search),
  );
  return Number(row?.count ?? 0);
}

/** A user as the lists show one: the provider's directory, and a group's member list beside the membership. */
export const listedUserColumns = {
  userId: user.id,
  email: user.email,
  givenName: user.givenName,
  familyName: user.familyName,
  globalRole: user.role,
  deletedAt: user.deletedAt,
  createdAt: user.createdAt,
};

/** Every account (the provider's directory), optionally with deleted ones. */
function directoryWhere({ includesDeleted }: { includesDeleted: boolean }) {
  return includesDeleted ? undefined : isNull(user.deletedAt);
}

export function countUsers(db: Database, filter: { includesDeleted: boolean }) {
  return db
    .select({ total: count() })
    .from(user)
    .where(directoryWhere(filter))
    .then((rows) => rows[0]?.total ?? 0);
}

/**
 * One page of every account, by e-mail: unique, and its index gives a page without sorting the
 * whole table.
 */
export function findUsersPage(
  db: Database,
  filter: { includesDeleted: boolean },
  { offset, limit }: { offset: number; limit: number },
) {
  return db
    .select(listedUserColumns)
    .from(user)
    .where(directoryWhere(filter))
    .orderBy(asc(user.email))
    .offset(offset)
    .limit(limit);
}

/**
 * Users by id or by a search over e-mail and names, limited to those with a membership (active or
 * removed) in one of `orgIds` unless it is null; the first `limit` by id (see SearchOrder). A
 * search leaves deleted accounts out; an id lookup keeps them.
 */
export function findUserSummaries(
  db: Database,
  {
    ids,
    term,
    orgIds,
    limit,
  }: { ids?: readonly string[] | undefined; term?: string | undefined; orgIds: readonly string[] | null; limit: number },
) {
  if (orgIds?.length === 0 || ids?.length === 0) return Promise.resolve([]);
  // A search within organisations reads their memberships' copies of the e-mail and names (bounded
  // by their size); a common term would otherwise match a large share of every user first.
  const inOrganisations = !orgIds
    ? undefined
    : term
      ? inArray(
          user.id,
          db
            .select({ userId: groupMember.userId })
            .from(groupMember)
            .where(and(inArray(groupMember.groupId, [...orgIds]), matchesMember(term))),
        )
      : sql`exists (select 1 from ${groupMember} as gm where gm.user_id = ${user.id} and gm.group_id in ${orgIds})`;
  return db
    .select({
      user_id: user.id,
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      deletedAt: user.deletedAt,
    })
    .from(user)
    .where(
      and(
        ids ? inArray(user.id, [...ids]) : undefined,
        term ? and(orgIds ? undefined : matchesUser(term), isNull(user.deletedAt)) : undefined,
        inOrganisations,
      ),
    )
    .orderBy(asc(user.id))
    .limit(limit);
}

/**
 * Accounts whose e-mail or names contain `term` (deleted ones left out unless `includesDeleted`),
 * `limit` of them from `offset` by family name, given name, e-mail and id. The matches are found on
 * the three trigram indexes and sorted: a page must hold the same users whatever the table's order.
 */
export function searchAllUsers(
  db: Database,
  {
    term,
    limit,
    offset = 0,
    includesDeleted = false,
  }: { term: string; limit: number; offset?: number; includesDeleted?: boolean },
) {
  return db
    .select({
      user_id: user.id,
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      role: user.role,
      deletedAt: user.deletedAt,
    })
    .from(user)
    .where(and(matchesUser(term), includesDeleted ? undefined : isNull(user.deletedAt)))
    .orderBy(asc(user.familyName), asc(user.givenName), asc(user.email), asc(user.id))
    .offset(offset)
    .limit(limit);
}

/** How many accounts searchAllUsers matches for `term`. */
export async function countAllUsersMatching(
  db: Database,
  { term, includesDeleted = false }: { term: string; includesDeleted?: boolean },
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(user)
    .where(and(matchesUser(term), includesDeleted ? undefined : isNull(user.deletedAt)));
  return Number(row?.count ?? 0);
}
