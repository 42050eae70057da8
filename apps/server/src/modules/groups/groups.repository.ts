import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';

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
  const rows = await db
    .select({ groupId: groupMember.groupId, members: count() })
    .from(groupMember)
    .where(and(inArray(groupMember.groupId, groupIds), isNull(groupMember.removedAt)))
    .groupBy(groupMember.groupId);
  return new Map(rows.map((r) => [r.groupId, r.members]));
}

export function findGroupById(db: Database, id: string): Promise<GroupRow | null> {
  return db
    .select()
    .from(group)
    .where(eq(group.id, id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
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
