import { type AuditPage, AuditPageSchema } from '@patientsim/domain/audit/audit.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Whose trail: every organisation's (the provider), or one organisation's (its admins). */
export type AuditScope = { kind: 'all'; orgId: string | null } | { kind: 'organisation'; orgId: string };

/** The filters of the list and of its export; `from` and `to` are instants with an offset (utils/date-range.ts). */
export type AuditFilters = { actorId: string | null; action: string | null; from: string | null; to: string | null };

/** The path of a trail, or of its CSV export with `suffix` '/export'. */
export function auditPath(scope: AuditScope, suffix = ''): string {
  return scope.kind === 'all'
    ? `/api/users/audit-events${suffix}`
    : `/api/users/extension/groups/${encodeURIComponent(scope.orgId)}/audit-events${suffix}`;
}

/** The query of a trail: the filters, and the organisation when the provider names one. */
export function auditQuery(scope: AuditScope, filters: AuditFilters) {
  return scope.kind === 'all' ? { ...filters, orgId: scope.orgId } : filters;
}

/** A page of the audit trail (GET /audit-events, or GET /extension/groups/{id}/audit-events). */
export function getAuditEvents(scope: AuditScope, filters: AuditFilters, page: number): Promise<AuditPage> {
  return apiFetch(auditPath(scope), {
    query: { ...auditQuery(scope, filters), page },
    schema: AuditPageSchema,
  });
}

export const auditEventsQueryOptions = (scope: AuditScope, filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: ['audit-events', scope, filters, { page }],
    queryFn: () => getAuditEvents(scope, filters, page),
    placeholderData: keepPreviousData,
  });

/** `isEnabled` false holds the query back (filters the server would refuse). */
export function useAuditEvents(scope: AuditScope, filters: AuditFilters, page: number, { isEnabled = true } = {}) {
  return useQuery({ ...auditEventsQueryOptions(scope, filters, page), enabled: isEnabled });
}
