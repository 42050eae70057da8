import { type AuditPage, AuditPageSchema } from '@patientsim/domain/audit/audit.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { requireIdToken } from '../../../lib/id-token';

/** Whose trail: every organisation's (the provider), or one organisation's (its admins). */
export type AuditScope = { kind: 'all'; orgId: string | null } | { kind: 'organisation'; orgId: string };

export type AuditFilters = { actorId: string | null; action: string | null };

/** A page of the audit trail (GET /audit-events, or GET /extension/groups/{id}/audit-events). */
export function getAuditEvents(scope: AuditScope, filters: AuditFilters, page: number): Promise<AuditPage> {
  const query = { page, actorId: filters.actorId, action: filters.action };
  const path =
    scope.kind === 'all'
      ? '/api/users/audit-events'
      : `/api/users/extension/groups/${encodeURIComponent(scope.orgId)}/audit-events`;
  return apiFetch(path, {
    query: scope.kind === 'all' ? { ...query, orgId: scope.orgId } : query,
    token: requireIdToken(),
    schema: AuditPageSchema,
  });
}

export const auditEventsQueryOptions = (scope: AuditScope, filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: ['audit-events', scope, filters, { page }],
    queryFn: () => getAuditEvents(scope, filters, page),
    placeholderData: keepPreviousData,
  });

export function useAuditEvents(scope: AuditScope, filters: AuditFilters, page: number) {
  return useQuery(auditEventsQueryOptions(scope, filters, page));
}
