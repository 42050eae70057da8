import { type Invite, UserInvitesResponseSchema } from '@patientsim/domain/invitations/invitation.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Still waiting for an answer: neither dismissed nor declined (spec section 4, Invite). */
export function isPendingInvite(invite: Invite): boolean {
  return !invite.dismissed && !invite.declined;
}

/** The pending invitations of a user, shown on the profile. */
export async function getUserInvites(userId: string): Promise<Invite[]> {
  const response = await apiFetch(`/api/users/invites/user/${encodeURIComponent(userId)}`, {
    schema: UserInvitesResponseSchema,
  });
  return response.data.invites.filter(isPendingInvite);
}

export const userInvitesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['invitations', 'user', userId], queryFn: () => getUserInvites(userId) });

export function useUserInvites(userId: string) {
  return useQuery(userInvitesQueryOptions(userId));
}

/** True when the user has a pending invitation (the ACCOUNT '!' badge); false while unknown. */
export function useHasPendingInvitation(userId: string | null): boolean {
  const query = useQuery({
    ...userInvitesQueryOptions(userId ?? ''),
    enabled: userId !== null,
    select: (invites) => invites.length > 0,
  });
  return query.data ?? false;
}
