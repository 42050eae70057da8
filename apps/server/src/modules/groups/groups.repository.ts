import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
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
