import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';

export type GroupRow = typeof group.$inferSelect;

/** Groups the user is an active member of. */
export function findGroupsOfUser(db: Database, userId: string): Promise<GroupRow[]> {
  return db
    .select({ group })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(and(eq(groupMember.userId, userId), isNull(groupMember.removedAt)))
    .orderBy(group.name)
    .then((rows) => rows.map((r) => r.group));
}

/** Active member counts of the given groups. */
export async function countMembers(db: Database, groupIds: string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  // The stored count (migration 0005): in a transaction that locked the group, it is exact.
  const rows = await db.select({ groupId: group.id, members: group.memberCount }).from(group).where(inArray(group.id, groupIds));
  return new Map(rows.map((r) => [r.groupId, r.members]));
}

/**
 * The pending, unexpired invitations into each of `orgIds` that keep a seat: those not through a
 * subscription (decision 0035). The seat check and every seat figure the API answers count them here.
 */
export async function countSeatTakingInvitations(db: Database, orgIds: readonly string[]): Promise<Map<string, number>> {
  if (orgIds.length === 0) return new Map();
  const rows = await db
    .select({ orgId: invitation.orgId, pending: count() })
    .from(invitation)
    .where(
      and(
        inArray(invitation.orgId, [...orgIds]),
        eq(invitation.status, 'pending'),
        gt(invitation.expiresAt, new Date()),
        eq(invitation.throughSubscription, false),
      ),
    )
    .groupBy(invitation.orgId);
  return new Map(rows.flatMap((r) => (r.orgId === null ? [] : [[r.orgId, r.pending] as const])));
}

export function findGroupById(db: Database, id: string): Promise<GroupRow | null> {
  // Every organisation-scoped request reads its group: a named statement (decision 0024).
  return prepared(db, 'group_by_id', (name) =>
    db
      .select()
      .from(group)
      .where(eq(group.id, sql.placeholder('id')))
      .limit(1)
      .prepare(name),
  )
    .execute({ id })
    .then((rows) => rows[0] ?? null);
}

/** Every group, organisations first (the provider's staff see them all). */
/** The groups (organisations and sub-groups) among `ids` that exist. */
export function findGroupsByIds(db: Database, ids: readonly string[]): Promise<GroupRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(group)
    .where(inArray(group.id, [...ids]));
}

export function findAllGroups(db: Database): Promise<GroupRow[]> {
  return db.select().from(group).orderBy(sql`${group.parentId} is not null`, group.name);
}

/** The sub-groups of an organisation. */
export function findSubgroups(db: Database, parentId: string): Promise<GroupRow[]> {
  return db.select().from(group).where(eq(group.parentId, parentId)).orderBy(group.name);
}

/** Those of `ids` that are sub-groups of `parentId`. */
export function findSubgroupsByIds(db: Database, parentId: string, ids: readonly string[]): Promise<GroupRow[]> {
  return db
    .select()
    .from(group)
    .where(and(eq(group.parentId, parentId), inArray(group.id, [...ids])));
}

/** A sub-group of `parentId` with this stored name, other than `exceptId`. */
export function findSubgroupByName(db: Database, parentId: string, name: string, exceptId?: string) {
  return db
    .select({ id: group.id })
    .from(group)
    .where(and(eq(group.parentId, parentId), eq(group.name, name), exceptId ? ne(group.id, exceptId) : undefined))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function insertGroup(db: Database, values: typeof group.$inferInsert): Promise<GroupRow> {
  return db
    .insert(group)
    .values(values)
    .returning()
    .then((rows) => rows[0] as GroupRow);
}

export function updateGroup(db: Database, id: string, values: Partial<typeof group.$inferInsert>): Promise<GroupRow | null> {
  return db
    .update(group)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(group.id, id))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Deletes groups (their memberships go with them: ON DELETE CASCADE). */
export async function deleteGroups(db: Database, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(group).where(inArray(group.id, [...ids]));
}

const SEARCH_LIMIT = 50;

/**
 * One page of the organisations (no sub-groups), by name then id, optionally those whose name
 * contains `term` (on the trigram index), and how many there are in all.
 */
export async function findOrganisationsPage(
  db: Database,
  { term, offset, limit }: { term: string | undefined; offset: number; limit: number },
): Promise<{ total: number; rows: GroupRow[] }> {
  const where = and(isNull(group.parentId), term ? ilike(group.name, `%${escapeLike(term)}%`) : undefined);
  const [totals, rows] = await Promise.all([
    db.select({ total: count() }).from(group).where(where),
    db.select().from(group).where(where).orderBy(asc(group.name), asc(group.id)).offset(offset).limit(limit),
  ]);
  return { total: totals[0]?.total ?? 0, rows };
}

/** `%` and `_` are wildcards of LIKE: a term searches for them literally. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Groups whose name is like `term` (pg_trgm similarity of at least 0.2) or contains it, best
 * first, limited to the groups of `orgIds` unless null (everything). Both conditions use the
 * trigram index on the name; the threshold is set for this transaction only.
 */
export function searchGroups(db: Database, term: string, orgIds: readonly string[] | null): Promise<GroupRow[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('pg_trgm.similarity_threshold', '0.2', true)`);
    const matches = or(sql`${group.name} % ${term}`, ilike(group.name, `%${escapeLike(term)}%`));
    const scope =
      orgIds === null
        ? undefined
        : orgIds.length === 0
          ? sql`false`
          : or(inArray(group.id, [...orgIds]), inArray(group.parentId, [...orgIds]));
    return tx
      .select()
      .from(group)
      .where(and(matches, scope))
      .orderBy(desc(sql`similarity(${group.name}, ${term})`), group.name)
      .limit(SEARCH_LIMIT);
  });
}

/** Names `userId` key owner of the organisation `orgId` if it has none; false when it had one. */
export function setKeyOwnerIfVacant(db: Database, orgId: string, userId: string): Promise<boolean> {
  return db
    .update(group)
    .set({ ownerId: userId, updatedAt: new Date() })
    .where(and(eq(group.id, orgId), isNull(group.parentId), isNull(group.ownerId)))
    .returning({ id: group.id })
    .then((rows) => rows.length > 0);
}

/** Reads a group and locks its row until the transaction ends (writes that must not interleave). */
export function lockGroup(db: Database, id: string): Promise<GroupRow | null> {
  return db
    .select()
    .from(group)
    .where(eq(group.id, id))
    .for('update')
    .then((rows) => rows[0] ?? null);
}
