import { type ApplicationList, ApplicationListSchema } from '@patientsim/domain/applications/application.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The platform's applications that sign in through PatientSim (GET /applications, decision 0065). */
export function getApplications(signal?: AbortSignal): Promise<ApplicationList> {
  return apiFetch('/api/users/applications', { schema: ApplicationListSchema, ...(signal ? { signal } : {}) });
}

export const applicationsKey = ['applications'] as const;

export const applicationsQueryOptions = () =>
  queryOptions({ queryKey: applicationsKey, queryFn: ({ signal }) => getApplications(signal) });

export function useApplications() {
  return useQuery(applicationsQueryOptions());
}
