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

/** Who does something: the token's person, and the super admin when it is a View-As-User token. */
export type AuditActor = { id: string; act?: { sub: string } | undefined };

/**
 * Appends one audit event done by `actor`; through a View-As-User token it is recorded as the
 * viewed person's on the super admin's behalf.
 */
export async function auditAs(
  db: Database,
  actor: AuditActor,
  entry: Omit<AuditEntry, 'actorId' | 'onBehalfOfId'>,
): Promise<void> {
  await audit(db, { ...entry, actorId: actor.id, onBehalfOfId: actor.act?.sub ?? null });
}

/**
 * Appends one event per organisation in `orgIds` (each organisation's trail shows it), or a single
 * event outside any organisation when there is none.
 */
export async function auditInOrganisations(db: Database, orgIds: readonly string[], entry: Omit<AuditEntry, 'orgId'>) {
  const targets = orgIds.length > 0 ? [...new Set(orgIds)] : [null];
  await db.insert(auditEvent).values(targets.map((orgId) => ({ id: newId(), ...entry, orgId })));
}
