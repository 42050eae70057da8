import {
  type InviteResult,
  InviteResultListSchema,
  type InviteUsersBody,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateOrgInvitations } from './invalidate-org-people';

/** Invites addresses into an organisation, all in one request (spec 7, POST /invitations/invite). */
export function createInvitations(body: InviteUsersBody): Promise<InviteResult[]> {
  return apiFetch('/api/users/invitations/invite', {
    method: 'POST',
    body,
    schema: InviteResultListSchema,
  });
}

export function useCreateInvitations(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['invitations', 'create', orgId],
    mutationFn: createInvitations,
    // One address or a bulk list: the invitees show as pending rows and take seats; members join later, by accepting.
    onSuccess: () => invalidateOrgInvitations(queryClient, orgId),
  });
}
