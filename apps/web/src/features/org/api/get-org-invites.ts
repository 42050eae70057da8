import { type OrgInvitesResponse, OrgInvitesResponseSchema } from '@patientsim/domain/invitations/invite-users.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The pending invitations of an organisation (spec 7, GET invites/org/{id}). */
export function getOrgInvites(orgId: string): Promise<OrgInvitesResponse> {
  return apiFetch(`/api/users/invites/org/${encodeURIComponent(orgId)}`, {
    schema: OrgInvitesResponseSchema,
  });
}

export const orgInvitesQueryKey = (orgId: string) => ['invitations', 'org', orgId] as const;

export const orgInvitesQueryOptions = (orgId: string) =>
  queryOptions({ queryKey: orgInvitesQueryKey(orgId), queryFn: () => getOrgInvites(orgId) });

export function useOrgInvites(orgId: string | null) {
  return useQuery({ ...orgInvitesQueryOptions(orgId ?? ''), enabled: orgId !== null });
}
