/**
 * One page of a group's memberships (the member list), and how many there are: the total from the
 * group's stored counts, the page from the group's range of the listing index or, for a rare
 * search term, from its matches (decisions 0020 and 0055).
 */
import { and, asc, count, desc, eq, isNotNull, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { escapeLike, listedUserColumns, matchesMember } from './user-search.repository.js';

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
 * counted: a search's through the trigram index `group_member_search_idx`, as a prepared statement
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
export type StoredMemberCounts = Pick<typeof group.$inferSelect, 'memberCount' | 'subscribedMemberCount' | 'removedMemberCount'>;

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
    .select({ ...listedUserColumns, memberRole: page.memberRole, subscribed: page.subscribed, removedAt: page.removedAt })
    .from(page)
    .innerJoin(user, eq(user.id, page.userId))
    .orderBy(asc(page.familyName), asc(page.givenName), asc(page.email), asc(page.userId));
}

type MembershipPageRow = Awaited<ReturnType<typeof membershipPage>>[number];

/**
 * Whether the member list's filter runs as prepared statements (decision 0055): its own variants, and
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
 * prepared statements (decision 0055); `counts`, the group's stored counts when the caller has just
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
