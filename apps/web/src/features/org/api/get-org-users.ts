import { type OrgUsersVariant, OrgUsersPageSchema, type OrgUsersPage } from '@patientsim/domain/users/org-users.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export type OrgUsersRequest = { orgId: string; variant: OrgUsersVariant; page: number; search: string };

/** One page of an organisation's users (members first, then invitees). */
export function getOrgUsers({ orgId, variant, page, search }: OrgUsersRequest, signal?: AbortSignal): Promise<OrgUsersPage> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/members`, {
    query: { variant, page, search: search || undefined },
    schema: OrgUsersPageSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Every page and search of an organisation's users lives under this key. */
export const orgUsersKey = (orgId: string) => ['groups', orgId, 'users'] as const;

export const orgUsersQueryOptions = (request: OrgUsersRequest) =>
  queryOptions({
    queryKey: [...orgUsersKey(request.orgId), request.variant, request.page, request.search],
    queryFn: ({ signal }) => getOrgUsers(request, signal),
    // The current rows stay (under a progress bar) while the next page or search loads.
    placeholderData: keepPreviousData,
  });

export function useOrgUsers(request: OrgUsersRequest) {
  return useQuery(orgUsersQueryOptions(request));
}
