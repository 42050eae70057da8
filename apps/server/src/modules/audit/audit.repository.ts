import { and, count, desc, eq, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { auditEvent } from '../../db/schema/audit.js';
import { user } from '../../db/schema/auth.js';
import { group } from '../../db/schema/groups.js';

/** Reads of the append-only audit trail (lib/audit.ts writes it). */

export type AuditFilter = {
  orgId?: string | undefined;
  actorId?: string | undefined;
  action?: string | undefined;
  /** The first instant included. */
  from?: Date | undefined;
  /** The last instant included. */
  to?: Date | undefined;
};

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    filter.orgId ? eq(auditEvent.orgId, filter.orgId) : undefined,
    // A person's events: what they did, and what they did while viewing the product as someone.
    filter.actorId ? or(eq(auditEvent.actorId, filter.actorId), eq(auditEvent.onBehalfOfId, filter.actorId)) : undefined,
    filter.action ? eq(auditEvent.action, filter.action) : undefined,
    filter.from ? gte(auditEvent.createdAt, filter.from) : undefined,
    filter.to ? lte(auditEvent.createdAt, filter.to) : undefined,
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
const person = <T extends typeof actor | typeof behalf>(table: T) => ({
  id: table.id,
  email: table.email,
  givenName: table.givenName,
  familyName: table.familyName,
});

/**
 * Events with the names of the people and organisation they name (the target's name is stored
 * with the event), and each one's time as an export's cursor (see AuditCursor).
 */
function selectNamedEvents(db: Database) {
  return db
    .select({
      event: auditEvent,
      actor: person(actor),
      behalf: person(behalf),
      orgName: group.name,
      cursorAt: sql<string>`${auditEvent.createdAt}::text`,
    })
    .from(auditEvent)
    .leftJoin(actor, eq(actor.id, auditEvent.actorId))
    .leftJoin(behalf, eq(behalf.id, auditEvent.onBehalfOfId))
    .leftJoin(group, eq(group.id, auditEvent.orgId));
}

export type NamedAuditEventRow = Awaited<ReturnType<typeof findAuditEventsPage>>[number];

/** A page of events, newest first. */
export function findAuditEventsPage(db: Database, filter: AuditFilter, { offset, limit }: { offset: number; limit: number }) {
  return selectNamedEvents(db)
    .where(whereOf(filter))
    .orderBy(desc(auditEvent.createdAt), desc(auditEvent.id))
    .offset(offset)
    .limit(limit);
}

/**
 * Where the previous batch of an export ended: its last event's time as PostgreSQL wrote it
 * (microseconds; a JavaScript Date would cut them and skip events) and id.
 */
export type AuditCursor = { createdAt: string; id: string };

/**
 * The next `limit` events, newest first, after `cursor`: an export reads the whole trail in
 * batches without offsets, so a batch costs the same however deep it is.
 */
export function findAuditEventsAfter(db: Database, filter: AuditFilter, cursor: AuditCursor | null, limit: number) {
  const at = cursor ? sql`${cursor.createdAt}::timestamptz` : undefined;
  const after =
    cursor && at ? or(lt(auditEvent.createdAt, at), and(eq(auditEvent.createdAt, at), lt(auditEvent.id, cursor.id))) : undefined;
  return selectNamedEvents(db)
    .where(and(whereOf(filter), after))
    .orderBy(desc(auditEvent.createdAt), desc(auditEvent.id))
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
