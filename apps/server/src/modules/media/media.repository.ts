import { and, eq, inArray, isNotNull, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { caseConfiguration } from '../../db/schema/cases.js';
import { media } from '../../db/schema/tutorials.js';

export type MediaRow = typeof media.$inferSelect;

export async function findMedia(db: Database, id: string): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(eq(media.id, id)).limit(1);
  return row ?? null;
}

export function findMediaByIds(db: Database, ids: readonly string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(media)
    .where(inArray(media.id, [...ids]));
}

/** Inserts a received file unless a file of that id exists; true when inserted. */
export async function insertReceivedMedia(
  db: Database,
  values: { id: string; fileName: string; contentType: string; content: Buffer },
): Promise<boolean> {
  const rows = await db
    .insert(media)
    .values({ ...values, path: null })
    .onConflictDoNothing({ target: media.id })
    .returning({ id: media.id });
  return rows.length > 0;
}

/**
 * Deletes those of the received files `ids` that no case document references any more. Shipped
 * files (tutorial videos, demo pictures) are never deleted here.
 */
export async function deleteUnreferencedReceivedMedia(db: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const referencing = db
    .select({ id: caseConfiguration.id })
    .from(caseConfiguration)
    // A document references a file by its URL, the JSON string "/media/<id>". An `_` in an id
    // matches any character here: that can only keep a file, never delete one in use.
    .where(sql`${caseConfiguration.document}::text like '%"/media/' || ${media.id} || '"%'`);
  const rows = await db
    .delete(media)
    .where(and(inArray(media.id, [...ids]), isNotNull(media.content), notExists(referencing)))
    .returning({ id: media.id });
  return rows.length;
}
