import {
  AUDIT_CSV_HEADER,
  type AuditEvent,
  type AuditExportQuery,
  type AuditPage,
  type AuditQuery,
  auditActionLabel,
  auditTargetTypeLabel,
} from '@patientsim/domain/audit/audit.schemas';
import { buildPageResult, pageOffset } from '@patientsim/domain/common/page.schemas';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import type { Database } from '../../db/client.js';
import { personName } from '../../lib/audit.js';
import { toCsvLines } from '../../lib/csv.js';
import * as repo from './audit.repository.js';

export { findViewSessionOrganisation } from './audit.repository.js';

type Row = repo.NamedAuditEventRow;
type PersonRow = { id: string | null; email: string | null; givenName: string | null; familyName: string | null } | null;

function toPerson(row: PersonRow) {
  if (!row?.id) return null;
  const email = row.email ?? '';
  return { id: row.id, name: personName({ givenName: row.givenName ?? '', familyName: row.familyName ?? '', email }), email };
}

function toWire(row: Row): AuditEvent {
  const { event } = row;
  // While viewing the product as someone, the recorded actor is the person viewed and the super
  // admin is on whose behalf it ran: the trail names the super admin as the one who did it.
  const recorded = toPerson(row.actor);
  const superAdmin = toPerson(row.behalf);
  const reason = event.details?.reason;
  return {
    id: event.id,
    action: event.action,
    actor: event.onBehalfOfId ? superAdmin : recorded,
    viewingAs: event.onBehalfOfId ? recorded : null,
    target: event.targetType ? { type: event.targetType, id: event.targetId, label: event.targetName } : null,
    organisation: event.orgId
      ? { id: event.orgId, name: row.orgName === null ? event.orgId : displayGroupName(row.orgName) }
      : null,
    reason: typeof reason === 'string' ? reason : null,
    createdAt: event.createdAt.toISOString(),
  };
}

function toFilter(query: AuditExportQuery): repo.AuditFilter {
  return {
    orgId: query.orgId,
    actorId: query.actorId,
    action: query.action,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
  };
}

/**
 * A page of the audit trail, newest first: every organisation's for the provider, or the one
 * organisation `orgId` (an organisation admin's own), filtered by actor, action and date range.
 */
export async function listAuditEvents({ db, query }: { db: Database; query: AuditQuery }): Promise<AuditPage> {
  const filter = toFilter(query);
  const [total, rows] = await Promise.all([
    repo.countAuditEvents(db, filter),
    repo.findAuditEventsPage(db, filter, { offset: pageOffset(query), limit: query.pageSize }),
  ]);
  return buildPageResult(query, total, rows.map(toWire));
}

/** Events an export reads at a time: a batch's rows are all that it holds in memory. */
export const AUDIT_EXPORT_BATCH_SIZE = 500;

function toCsvRow(event: AuditEvent): string[] {
  return [
    event.createdAt,
    event.actor?.name ?? '',
    event.actor?.email ?? '',
    event.viewingAs?.name ?? '',
    event.viewingAs?.email ?? '',
    auditActionLabel(event.action),
    event.target ? auditTargetTypeLabel(event.target.type) : '',
    event.target?.label ?? '',
    event.organisation?.name ?? '',
    event.reason ?? '',
  ];
}

/**
 * The audit trail as CSV, newest first, in batches of AUDIT_EXPORT_BATCH_SIZE events: the same
 * scope and filters as the list, every matching event, never more than a batch in memory. Cells
 * are quoted and formula-looking text neutralised (lib/csv.ts).
 */
export async function* exportAuditEvents({ db, query }: { db: Database; query: AuditExportQuery }): AsyncGenerator<string> {
  const filter = toFilter(query);
  yield toCsvLines([AUDIT_CSV_HEADER]);
  let cursor: repo.AuditCursor | null = null;
  for (;;) {
    const rows = await repo.findAuditEventsAfter(db, filter, cursor, AUDIT_EXPORT_BATCH_SIZE);
    if (rows.length > 0) yield toCsvLines(rows.map((row) => toCsvRow(toWire(row))));
    const last = rows.at(-1);
    if (!last || rows.length < AUDIT_EXPORT_BATCH_SIZE) return;
    cursor = { createdAt: last.cursorAt, id: last.event.id };
  }
}
