import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { account, licenseAcceptance, user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';

type GroupRow = typeof group.$inferSelect;

/** Users and their memberships: the one place that queries these tables (decision 0013). */

export function findUserByEmail(db: Database, email: string) {
  return db
    .select()
    .from(user)
    .where(eq(user.email, email))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findUserById(db: Database, id: string) {
  return db
    .select()
    .from(user)
    .where(eq(user.id, id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** The password hash of a user's credential account (null without one). */
export function findPasswordHash(db: Database, userId: string) {
  return db
    .select({ password: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
    .limit(1)
    .then((rows) => rows[0]?.password ?? null);
}

export function insertUserWithPassword(
  db: Database,
  { user: values, passwordHash }: { user: typeof user.$inferInsert & { id: string }; passwordHash: string },
) {
  return db.transaction(async (tx) => {
    await tx.insert(user).values(values);
    await tx
      .insert(account)
      .values({ id: values.id, accountId: values.id, providerId: 'credential', userId: values.id, password: passwordHash });
  });
}

/**
 * A membership, or a removed one back: either way with the role and the subscription it is given
 * now (a member who returns through a subscribed invitation holds no seat; one who returns any other
 * way holds one).
 */
export function addMembership(db: Database, values: typeof groupMember.$inferInsert) {
  const subscribed = values.subscribed ?? false;
  return db
    .insert(groupMember)
    .values({ ...values, subscribed })
    .onConflictDoUpdate({
      target: [groupMember.groupId, groupMember.userId],
      set: { role: values.role, subscribed, removedAt: null },
    });
}

export function recordLicenseAcceptance(db: Database, values: typeof licenseAcceptance.$inferInsert) {
  return db.transaction(async (tx) => {
    await tx.insert(licenseAcceptance).values(values);
    await tx.update(user).set({ licenseVersion: values.version, updatedAt: new Date() }).where(eq(user.id, values.userId));
  });
}

/** True when the user is an active member of the top-level organisation `orgId`. */
export function isOrganisationMember(db: Database, userId: string, orgId: string) {
  return db
    .select({ id: group.id })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(
      and(eq(groupMember.userId, userId), eq(groupMember.groupId, orgId), isNull(groupMember.removedAt), isNull(group.parentId)),
    )
    .limit(1)
    .then((rows) => rows.length > 0);
}

export function setActiveOrganisation(db: Database, userId: string, orgId: string) {
  return db.update(user).set({ activeOrgId: orgId, updatedAt: new Date() }).where(eq(user.id, userId));
}

export function updateUser(db: Database, id: string, values: Partial<typeof user.$inferInsert>) {
  return db
    .update(user)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(user.id, id))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Active members of an organisation (for the all-members summary). */
export function findOrganisationMemberIds(db: Database, orgId: string) {
  return db
    .select({ userId: groupMember.userId })
    .from(groupMember)
    .where(and(eq(groupMember.groupId, orgId), isNull(groupMember.removedAt)))
    .then((rows) => rows.map((r) => r.userId));
}

/** Active memberships of the given users in a group. */
export function findMemberships(db: Database, groupId: string, userIds: string[]) {
  return db
    .select()
    .from(groupMember)
    .where(and(eq(groupMember.groupId, groupId), inArray(groupMember.userId, userIds), isNull(groupMember.removedAt)));
}

/**
 * Removes users from a group. From an organisation they are archived (kept with removed_at, for
 * the grading archive) and leave its sub-groups; from a sub-group the membership is deleted.
 */
export async function removeMembers(db: Database, target: GroupRow, userIds: string[]) {
  await db.transaction(async (tx) => {
    if (target.parentId === null) {
      const subgroups = await tx.select({ id: group.id }).from(group).where(eq(group.parentId, target.id));
      if (subgroups.length > 0) {
        await tx.delete(groupMember).where(
          and(
            inArray(
              groupMember.groupId,
              subgroups.map((g) => g.id),
            ),
            inArray(groupMember.userId, userIds),
          ),
        );
      }
      await tx
        .update(groupMember)
        .set({ removedAt: new Date() })
        .where(and(eq(groupMember.groupId, target.id), inArray(groupMember.userId, userIds)));
    } else {
      await tx.delete(groupMember).where(and(eq(groupMember.groupId, target.id), inArray(groupMember.userId, userIds)));
    }
  });
}

export function findUserSummary(db: Database, id: string) {
  return db
    .select({ user_id: user.id, email: user.email, given_name: user.givenName, family_name: user.familyName })
    .from(user)
    .where(eq(user.id, id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** Memberships (not removed) of a user, with the groups they point at. */
export function findActiveMemberships(db: Database, userId: string) {
  return db
    .select({
      groupId: group.id,
      name: group.name,
      parentId: group.parentId,
      productType: group.productType,
      inactive: group.inactive,
      ai: group.ai,
      role: groupMember.role,
      subscribed: groupMember.subscribed,
    })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(and(eq(groupMember.userId, userId), isNull(groupMember.removedAt)));
}

/** Adds members to a sub-group (those already in it stay as they are). */
export async function addGroupMembers(
  db: Database,
  groupId: string,
  members: ReadonlyArray<{ userId: string; subscribed: boolean }>,
) {
  if (members.length === 0) return;
  await db
    .insert(groupMember)
    .values(members.map(({ userId, subscribed }) => ({ groupId, userId, subscribed })))
    .onConflictDoNothing();
}

/** Those of `emails` whose accounts are active members of the organisation `orgId`. */
export function findMemberEmails(db: Database, orgId: string, emails: readonly string[]) {
  if (emails.length === 0) return Promise.resolve(new Set<string>());
  return db
    .select({ email: user.email })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(and(eq(groupMember.groupId, orgId), isNull(groupMember.removedAt), inArray(user.email, [...emails])))
    .then((rows) => new Set(rows.map((r) => r.email)));
}

/** `%term%` with LIKE's own wildcards (`%`, `_` and its escape character) taken literally. */
function escapeLike(term: string): string {
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
function matchesMember(term: string) {
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

/** The conditions of a member search (see searchOrganisationMembers), over groupMember joined to user. */
function memberSearchWhere({ orgId, term, role, groupId, inGroup }: MemberSearch) {
  const inGroupSql = groupId
    ? sql`exists (select 1 from ${groupMember} as g2 where g2.group_id = ${groupId} and g2.user_id = ${user.id} and g2.removed_at is null)`
    : undefined;
  return and(
    eq(groupMember.groupId, orgId),
    isNull(groupMember.removedAt),
    isNull(user.deletedAt),
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

/** How many members a member search matches (searchOrganisationMembers without its page). */
export async function countOrganisationMembers(db: Database, search: MemberSearch): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(memberSearchWhere(search));
  return Number(row?.count ?? 0);
}

/**
 * Which memberships of a group a list shows: active (`all`), active and subscribed, removed
 * (`archived`), or active and removed alike (`everyone`); optionally without deleted accounts.
 */
export type MembershipFilter = {
  groupId: string;
  variant: 'all' | 'subscribed' | 'archived' | 'everyone';
  term?: string | undefined;
  hidesDeletedAccounts?: boolean;
};

/** The memberships a list variant keeps. */
function variantWhere(variant: MembershipFilter['variant']) {
  switch (variant) {
    case 'all':
      return isNull(groupMember.removedAt);
    case 'subscribed':
      return and(isNull(groupMember.removedAt), eq(groupMember.subscribed, true));
    case 'archived':
      return isNotNull(groupMember.removedAt);
    case 'everyone':
      return undefined;
  }
}

function membershipWhere({ groupId, variant, term, hidesDeletedAccounts = false }: MembershipFilter) {
  return and(
    eq(groupMember.groupId, groupId),
    variantWhere(variant),
    // Only the memberships are read; the user is looked at only to leave deleted accounts out.
    // A correlated lookup per membership (the user's primary key): a join or EXISTS may be planned
    // as a scan of every user.
    hidesDeletedAccounts
      ? sql`(select ${user.deletedAt} from ${user} where ${user.id} = ${groupMember.userId}) is null`
      : undefined,
    term ? matchesMember(term) : undefined,
  );
}

/**
 * How many memberships `filter` keeps. Without a search (and without looking at the accounts) that
 * is the group's stored count, which migration 0005's trigger keeps; otherwise the matches are
 * counted: a search's through the trigram index `group_member_search_idx`, as a named statement
 * when the member list's own filters allow it (see findGroupMembershipsPage).
 */
export function countGroupMemberships(db: Database, filter: MembershipFilter): Promise<number> {
  if (!filter.term && !filter.hidesDeletedAccounts) {
    return prepared(db, 'group_member_counts', (name) =>
      db
        .select({
          memberCount: group.memberCount,
          subscribedMemberCount: group.subscribedMemberCount,
          removedMemberCount: group.removedMemberCount,
        })
        .from(group)
        .where(eq(group.id, sql.placeholder('groupId')))
        .prepare(name),
    )
      .execute({ groupId: filter.groupId })
      .then(([counts]) => (counts ? storedMembershipCount(counts, filter.variant) : 0));
  }
  if (filter.term && isNamedSearch(filter)) {
    return prepared(db, `group_member_search_count_${filter.variant}`, (name) =>
      db
        .select({ total: count() })
        .from(groupMember)
        .where(
          and(
            eq(groupMember.groupId, sql.placeholder('groupId')),
            variantWhere(filter.variant),
            sql`${groupMember.userSearch} like lower(${sql.placeholder('pattern')})`,
          ),
        )
        .prepare(name),
    )
      .execute({ groupId: filter.groupId, pattern: escapeLike(filter.term) })
      .then((rows) => rows[0]?.total ?? 0);
  }
  return db
    .select({ total: count() })
    .from(groupMember)
    .where(membershipWhere(filter))
    .then((rows) => rows[0]?.total ?? 0);
}

/** A group's stored membership counts (migration 0005's trigger keeps them). */
export type StoredMemberCounts = Pick<GroupRow, 'memberCount' | 'subscribedMemberCount' | 'removedMemberCount'>;

/** How many memberships of a list variant a group has, by its stored counts. */
export function storedMembershipCount(counts: StoredMemberCounts, variant: MembershipFilter['variant']): number {
  switch (variant) {
    case 'all':
      return counts.memberCount;
    case 'subscribed':
      return counts.subscribedMemberCount;
    case 'archived':
      return counts.removedMemberCount;
    case 'everyone':
      return counts.memberCount + counts.removedMemberCount;
  }
}

type PageBounds = { offset: number | Placeholder; limit: number | Placeholder };

/**
 * How a page of memberships is read: along the group's range of `group_member_listing_idx`, in
 * list order, stopping once the page is complete (`range`); or, for a search that few memberships
 * match, by reading every match first through the trigram index and sorting them (`matches`: the
 * subquery's OFFSET, the placeholder `fence` given 0, keeps the planner from merging it into a
 * walk of the range that would pass every membership that does not match).
 */
type PageRead = 'range' | 'matches';

/**
 * Memberships that `where` keeps, in list order (or its reverse), cut to `bounds`, joined to their
 * users (only the page's rows are).
 */
function membershipPage(
  db: Database,
  { where, direction, read }: { where: SQL | undefined; direction: 'asc' | 'desc'; read: PageRead },
  { offset, limit }: PageBounds,
) {
  const order = direction === 'asc' ? asc : desc;
  const matchesQuery = db
    .select({
      userId: groupMember.userId,
      familyName: groupMember.userFamilyName,
      givenName: groupMember.userGivenName,
      email: groupMember.userEmail,
      memberRole: groupMember.role,
      subscribed: groupMember.subscribed,
      removedAt: groupMember.removedAt,
    })
    .from(groupMember)
    .where(where)
    .$dynamic();
  const matches = (read === 'matches' ? matchesQuery.offset(sql.placeholder('fence')) : matchesQuery).as('matches');
  const page = db
    .select({
      userId: matches.userId,
      familyName: matches.familyName,
      givenName: matches.givenName,
      email: matches.email,
      memberRole: matches.memberRole,
      subscribed: matches.subscribed,
      removedAt: matches.removedAt,
    })
    .from(matches)
    .orderBy(order(matches.familyName), order(matches.givenName), order(matches.email), order(matches.userId))
    .offset(offset)
    .limit(limit)
    .as('page');
  return db
    .select({
      userId: user.id,
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
      globalRole: user.role,
      memberRole: page.memberRole,
      subscribed: page.subscribed,
      removedAt: page.removedAt,
      deletedAt: user.deletedAt,
      createdAt: user.createdAt,
    })
    .from(page)
    .innerJoin(user, eq(user.id, page.userId))
    .orderBy(asc(page.familyName), asc(page.givenName), asc(page.email), asc(page.userId));
}

type MembershipPageRow = Awaited<ReturnType<typeof membershipPage>>[number];

/**
 * Whether the member list's filter runs as named statements (decision 0024): its own variants, and
 * a search without a line break (see matchesMember).
 */
function isNamedSearch(filter: MembershipFilter): boolean {
  return !filter.hidesDeletedAccounts && !filter.term?.includes('\n');
}

/**
 * From which end of the list a page of `total` rows is read: the nearer one, so that no page walks
 * past more than half of them; from the end, the bounds count from there.
 */
function nearerEnd(total: number, { offset, limit }: { offset: number; limit: number }) {
  const after = total - offset - limit;
  return after < offset
    ? { direction: 'desc' as const, bounds: { offset: Math.max(0, after), limit: Math.min(limit, total - offset) } }
    : { direction: 'asc' as const, bounds: { offset, limit } };
}

/**
 * A search that matches at least this share of the memberships it looks at (and this many) is
 * read along the list's range: a page is then found after about `1 / share` memberships a row,
 * whereas reading every match through the trigram index and sorting them costs in proportion to
 * all of them (a term found in a common e-mail domain matches a quarter of an organisation).
 */
export const SEARCH_RANGE_READ = { minShare: 1 / 8, minMatches: 500 } as const;

/**
 * One page of a group's memberships, by family name, given name, e-mail and id, and how many
 * there are in all. The page is cut from the group's range of `group_member_listing_idx` (the
 * copies of the sort keys and every membership column the list shows), read from whichever end
 * of the range is nearer, so no page walks past more than half of the group; only the page's rows
 * are joined to their users. A search counts its matches first (through the trigram index); a
 * search that many memberships match is then read along the range like the whole list (filtered
 * on `user_search` with `strpos`, which no index serves, so the planner walks the range), one that
 * few match by sorting its matches (see SEARCH_RANGE_READ). The member list's own filters run as
 * named statements (decision 0024); `counts`, the group's stored counts when the caller has just
 * read the group, saves asking for them again.
 */
export async function findGroupMembershipsPage(
  db: Database,
  filter: MembershipFilter,
  { offset, limit }: { offset: number; limit: number },
  counts?: StoredMemberCounts,
) {
  const isNamed = isNamedSearch(filter);
  const total =
    counts && !filter.term && !filter.hidesDeletedAccounts
      ? storedMembershipCount(counts, filter.variant)
      : await countGroupMemberships(db, filter);
  if (offset >= total) return { total, rows: [] as MembershipPageRow[] };
  if (filter.term && !isNamed) {
    const rows = await membershipPage(
      db,
      { where: membershipWhere(filter), direction: 'asc', read: 'matches' },
      { offset, limit },
    )
      .prepare('')
      .execute({ fence: 0 });
    return { total, rows };
  }
  if (filter.term && !(await isRangeRead(db, filter, total, counts))) {
    const rows = await prepared(db, `group_member_search_${filter.variant}`, (name) =>
      membershipPage(
        db,
        {
          where: and(
            eq(groupMember.groupId, sql.placeholder('groupId')),
            variantWhere(filter.variant),
            sql`${groupMember.userSearch} like lower(${sql.placeholder('pattern')})`,
          ),
          direction: 'asc',
          read: 'matches',
        },
        { offset: sql.placeholder('offset'), limit: sql.placeholder('limit') },
      ).prepare(name),
    ).execute({ groupId: filter.groupId, pattern: escapeLike(filter.term), fence: 0, offset, limit });
    return { total, rows };
  }
  const { direction, bounds } = nearerEnd(total, { offset, limit });
  if (!isNamed) {
    const rows = await membershipPage(db, { where: membershipWhere(filter), direction, read: 'range' }, bounds);
    return { total, rows };
  }
  const searched = filter.term ? 'search_range' : 'page';
  const rows = await prepared(db, `group_member_${searched}_${filter.variant}_${direction}`, (name) =>
    membershipPage(
      db,
      {
        where: and(
          eq(groupMember.groupId, sql.placeholder('groupId')),
          variantWhere(filter.variant),
          filter.term ? sql`strpos(${groupMember.userSearch}, lower(${sql.placeholder('term')})) > 0` : undefined,
        ),
        direction,
        read: 'range',
      },
      { offset: sql.placeholder('offset'), limit: sql.placeholder('limit') },
    ).prepare(name),
  ).execute({ groupId: filter.groupId, ...(filter.term ? { term: filter.term } : {}), ...bounds });
  return { total, rows };
}

/** Whether a search that `matches` of a list's `all` memberships match is read along the list (SEARCH_RANGE_READ). */
export function isSearchReadAlongRange(matches: number, all: number): boolean {
  return matches >= SEARCH_RANGE_READ.minMatches && matches >= all * SEARCH_RANGE_READ.minShare;
}

async function isRangeRead(db: Database, filter: MembershipFilter, total: number, counts?: StoredMemberCounts) {
  if (total < SEARCH_RANGE_READ.minMatches) return false;
  const all = counts
    ? storedMembershipCount(counts, filter.variant)
    : await countGroupMemberships(db, { groupId: filter.groupId, variant: filter.variant });
  return isSearchReadAlongRange(total, all);
}

/** The role of an active membership (the org-specific role). */
export function setMembershipRole(db: Database, { groupId, userId, role }: { groupId: string; userId: string; role: Role }) {
  return db
    .update(groupMember)
    .set({ role })
    .where(and(eq(groupMember.groupId, groupId), eq(groupMember.userId, userId), isNull(groupMember.removedAt)));
}

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
    .select({
      userId: user.id,
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
      globalRole: user.role,
      deletedAt: user.deletedAt,
      createdAt: user.createdAt,
    })
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

/** Every membership of a user, removed ones too, with the group it is in. */
export function findAllMembershipsOf(db: Database, userId: string) {
  return db
    .select({ group, role: groupMember.role, subscribed: groupMember.subscribed, removedAt: groupMember.removedAt })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(eq(groupMember.userId, userId))
    .orderBy(sql`${group.parentId} is not null`, sql`${groupMember.removedAt} is not null`, asc(group.name));
}

/** Ids of the organisations whose key owner the user is. */
export function findOrganisationsKeyOwnedBy(db: Database, userId: string) {
  return db
    .select({ id: group.id })
    .from(group)
    .where(and(eq(group.ownerId, userId), isNull(group.parentId)))
    .then((rows) => rows.map((r) => r.id));
}

/** Marks an account deleted; false when it was already (or does not exist): a concurrent call won. */
export function markUserDeleted(db: Database, userId: string) {
  return db
    .update(user)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(user.id, userId), isNull(user.deletedAt)))
    .returning({ id: user.id })
    .then((rows) => rows.length > 0);
}

/**
 * Takes a user out of every group: organisation memberships are archived (kept with removed_at,
 * for the grading archive), sub-group memberships are deleted. Answers the organisations left.
 */
export async function archiveAllMemberships(db: Database, userId: string): Promise<string[]> {
  await db
    .delete(groupMember)
    .where(
      and(
        eq(groupMember.userId, userId),
        sql`${groupMember.groupId} in (select ${group.id} from ${group} where ${group.parentId} is not null)`,
      ),
    );
  const archived = await db
    .update(groupMember)
    .set({ removedAt: new Date() })
    .where(and(eq(groupMember.userId, userId), isNull(groupMember.removedAt)))
    .returning({ groupId: groupMember.groupId });
  return archived.map((row) => row.groupId);
}
