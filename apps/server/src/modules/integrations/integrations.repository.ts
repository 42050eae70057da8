import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { provisioning } from '../../db/schema/auth.js';

export function insertProvisioning(db: Database, values: typeof provisioning.$inferInsert) {
  return db.insert(provisioning).values(values);
}

/** An unused, unexpired provisioning by the hash of its token. */
export function findUsableProvisioning(db: Database, tokenHash: string) {
  return db
    .select()
    .from(provisioning)
    .where(and(eq(provisioning.tokenHash, tokenHash), isNull(provisioning.usedAt), gt(provisioning.expiresAt, new Date())))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** Marks it used; false when another request used it first. */
export function useProvisioning(db: Database, id: string) {
  return db
    .update(provisioning)
    .set({ usedAt: new Date() })
    .where(and(eq(provisioning.id, id), isNull(provisioning.usedAt)))
    .returning({ id: provisioning.id })
    .then((rows) => rows.length === 1);
}
