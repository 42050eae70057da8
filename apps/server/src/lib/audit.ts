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

/**
 * Appends one event per organisation in `orgIds` (each organisation's trail shows it), or a single
 * event outside any organisation when there is none.
 */
export async function auditInOrganisations(db: Database, orgIds: readonly string[], entry: Omit<AuditEntry, 'orgId'>) {
  const targets = orgIds.length > 0 ? [...new Set(orgIds)] : [null];
  await db.insert(auditEvent).values(targets.map((orgId) => ({ id: newId(), ...entry, orgId })));
}
