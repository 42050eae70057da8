import type { AuditEvent, AuditPage, AuditQuery } from '@patientsim/domain/audit/audit.schemas';
import { buildPageResult, pageOffset } from '@patientsim/domain/common/page.schemas';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import type { Database } from '../../db/client.js';
import * as repo from './audit.repository.js';

export { findViewSessionOrganisation } from './audit.repository.js';

type Row = Awaited<ReturnType<typeof repo.findAuditEventsPage>>[number];
type PersonRow = { id: string | null; email: string | null; givenName: string | null; familyName: string | null } | null;

function toPerson(row: PersonRow) {
  if (!row?.id) return null;
  const email = row.email ?? '';
  const name = `${row.givenName ?? ''} ${row.familyName ?? ''}`.trim();
  return { id: row.id, name: name || email, email };
}

function targetLabel(row: Row): string | null {
  if (row.targetUser) return toPerson(row.targetUser)?.name ?? null;
  if (row.targetGroupName !== null) return displayGroupName(row.targetGroupName);
  return null;
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
    target: event.targetType && event.targetId ? { type: event.targetType, id: event.targetId, label: targetLabel(row) } : null,
    organisation: event.orgId
      ? { id: event.orgId, name: row.orgName === null ? event.orgId : displayGroupName(row.orgName) }
      : null,
    reason: typeof reason === 'string' ? reason : null,
    createdAt: event.createdAt.toISOString(),
  };
}

/**
 * A page of the audit trail, newest first: every organisation's for the provider, or the one
 * organisation `orgId` (an organisation admin's own), filtered by actor and action.
 */
export async function listAuditEvents({ db, query }: { db: Database; query: AuditQuery }): Promise<AuditPage> {
  const filter = { orgId: query.orgId, actorId: query.actorId, action: query.action };
  const [total, rows] = await Promise.all([
    repo.countAuditEvents(db, filter),
    repo.findAuditEventsPage(db, filter, { offset: pageOffset(query), limit: query.pageSize }),
  ]);
  return buildPageResult(query, total, rows.map(toWire));
}
