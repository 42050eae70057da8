import { OrganisationsPageSchema, type OrganisationsPage } from '@patientsim/domain/groups/group-management.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export type OrganizationsRequest = { page: number; search: string; pageSize?: number };

/** A page of every organisation, by name, optionally those whose name contains `search` (GET /organizations). */
export function getOrganizations(
  { page, search, pageSize }: OrganizationsRequest,
  signal?: AbortSignal,
): Promise<OrganisationsPage> {
  return apiFetch('/api/users/organizations', {
    query: { page, pageSize, search: search || undefined },
    schema: OrganisationsPageSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Every page and search of the organisations list lives under this key. */
export const organizationsKey = ['groups', 'organizations'] as const;

export const organizationsQueryOptions = (request: OrganizationsRequest) =>
  queryOptions({
    queryKey: [...organizationsKey, request.page, request.search, request.pageSize ?? null],
    queryFn: ({ signal }) => getOrganizations(request, signal),
    // The current rows stay (under a progress bar) while the next page or search loads.
    placeholderData: keepPreviousData,
  });

export function useOrganizations(request: OrganizationsRequest, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationsQueryOptions(request), enabled });
}
