import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { caseConfiguration, casePlay } from '../../db/schema/cases.js';

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
