import type { Database } from '../db/client.js';
import { auditEvent } from '../db/schema/audit.js';
import { newId } from './ids.js';

export type AuditEntry = {
  actorId: string | null;
  onBehalfOfId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  orgId?: string | null;
  ipAddress?: string | null;
  details?: Record<string, unknown>;
};

/** Appends one audit event. */
export async function audit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvent).values({ id: newId(), ...entry });
}
