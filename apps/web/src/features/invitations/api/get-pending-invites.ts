import { type Invite, PendingInvitesResponseSchema } from '@patientsim/domain/invitations/invitation.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { requireIdToken } from '../../../lib/id-token';
import { isPendingInvite } from './get-user-invites';

/** Pending invitations addressed to an e-mail address (the signed-in user's own). */
export async function getPendingInvites(email: string): Promise<Invite[]> {
  const response = await apiFetch('/api/users/invites/pending', {
    method: 'POST',
    body: { email },
    token: requireIdToken(),
    schema: PendingInvitesResponseSchema,
  });
  return response.data.pending.filter(isPendingInvite);
}

export const pendingInvitesQueryOptions = (email: string) =>
  queryOptions({ queryKey: ['invitations', 'pending', email], queryFn: () => getPendingInvites(email) });

export function usePendingInvites(email: string) {
  return useQuery(pendingInvitesQueryOptions(email));
}
