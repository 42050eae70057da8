import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { caseConfiguration, casePlay } from '../../db/schema/cases.js';
import { groupMember } from '../../db/schema/groups.js';

export function updateUser(db: Database, id: string, values: Partial<typeof user.$inferInsert>) {
  return db
    .update(user)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(user.id, id))
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function emailTakenByOther(db: Database, email: string, userId: string) {
  return db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.email, email), ne(user.id, userId)))
    .limit(1)
    .then((rows) => rows.length > 0);
}

/** Active members of an organisation (for the all-members summary). */
export function findOrganisationMemberIds(db: Database, orgId: string) {
  return db
    .select({ userId: groupMember.userId })
    .from(groupMember)
    .where(and(eq(groupMember.groupId, orgId), isNull(groupMember.removedAt)))
    .then((rows) => rows.map((r) => r.userId));
}

/** One row per user and scenario played: plays and last played. */
export function findScenarioPlays(db: Database, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
      caseId: caseConfiguration.id,
      caseName: caseConfiguration.name,
      plays: casePlay.plays,
      lastPlayed: casePlay.lastPlayed,
    })
    .from(casePlay)
    .innerJoin(user, eq(user.id, casePlay.userId))
    .innerJoin(caseConfiguration, eq(caseConfiguration.id, casePlay.caseId))
    .where(inArray(casePlay.userId, userIds))
    .orderBy(user.email, caseConfiguration.name);
}
