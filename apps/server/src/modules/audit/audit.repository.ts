import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { group } from '../../db/schema/groups.js';

/** Reads of the append-only audit trail (lib/audit.ts writes it). */

export type AuditFilter = { orgId?: string | undefined; actorId?: string | undefined; action?: string | undefined };

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    filter.orgId ? eq(auditEvent.orgId, filter.orgId) : undefined,
    // A person's events: what they did, and what they did while viewing the product as someone.
    filter.actorId ? or(eq(auditEvent.actorId, filter.actorId), eq(auditEvent.onBehalfOfId, filter.actorId)) : undefined,
    filter.action ? eq(auditEvent.action, filter.action) : undefined,
  );
}

export function countAuditEvents(db: Database, filter: AuditFilter): Promise<number> {
  return db
    .select({ total: count() })
    .from(auditEvent)
    .where(whereOf(filter))
    .then((rows) => rows[0]?.total ?? 0);
}

const actor = alias(user, 'actor');
const behalf = alias(user, 'behalf');
const targetUser = alias(user, 'target_user');
const targetGroup = alias(group, 'target_group');
const person = <T extends typeof actor | typeof behalf | typeof targetUser>(table: T) => ({
  id: table.id,
  email: table.email,
  givenName: table.givenName,
  familyName: table.familyName,
});

/** A page of events, newest first, with the names of the people, target and organisation they name. */
export function findAuditEventsPage(db: Database, filter: AuditFilter, { offset, limit }: { offset: number; limit: number }) {
  return db
    .select({
      event: auditEvent,
      actor: person(actor),
      behalf: person(behalf),
      targetUser: person(targetUser),
      targetGroupName: targetGroup.name,
      orgName: group.name,
    })
    .from(auditEvent)
    .leftJoin(actor, eq(actor.id, auditEvent.actorId))
    .leftJoin(behalf, eq(behalf.id, auditEvent.onBehalfOfId))
    .leftJoin(targetUser, and(eq(auditEvent.targetType, 'user'), eq(targetUser.id, auditEvent.targetId)))
    .leftJoin(targetGroup, and(eq(auditEvent.targetType, 'group'), eq(targetGroup.id, auditEvent.targetId)))
    .leftJoin(group, eq(group.id, auditEvent.orgId))
    .where(whereOf(filter))
    .orderBy(desc(auditEvent.createdAt), desc(auditEvent.id))
    .offset(offset)
    .limit(limit);
}

/** The organisation a View-As-User session was started in (from its start event). */
export function findViewSessionOrganisation(
  db: Database,
  { superAdminId, sessionId }: { superAdminId: string; sessionId: string },
) {
  return db
    .select({ orgId: auditEvent.orgId })
    .from(auditEvent)
    .where(
      and(
        eq(auditEvent.actorId, superAdminId),
        eq(auditEvent.action, 'view-as.start'),
        sql`${auditEvent.details} ->> 'sessionId' = ${sessionId}`,
      ),
    )
    .limit(1)
    .then((rows) => rows[0]?.orgId ?? null);
}
