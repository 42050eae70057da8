import { auditExportFileName } from '@patientsim/domain/audit/audit.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetchBlob } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/browser';
import { type AuditFilters, type AuditScope, auditPath, auditQuery } from './get-audit-events';

/**
 * Downloads the trail as CSV with the filters on screen (GET …/audit-events/export), named as the
 * server names it: after the date range as chosen (auditExportFileName).
 */
export async function exportAuditEvents({ scope, filters }: { scope: AuditScope; filters: AuditFilters }): Promise<void> {
  const csv = await apiFetchBlob(auditPath(scope, '/export'), {
    query: auditQuery(scope, filters),
    accept: 'text/csv',
  });
  saveBlob(csv, auditExportFileName({ from: filters.from ?? undefined, to: filters.to ?? undefined }, new Date()));
}

export const exportAuditEventsMutationOptions = () =>
  mutationOptions({ mutationKey: ['audit-events', 'export'], mutationFn: exportAuditEvents });

export function useExportAuditEvents() {
  return useMutation(exportAuditEventsMutationOptions());
}
