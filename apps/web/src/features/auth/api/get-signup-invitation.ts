import { type SignUpInvitation, SignUpInvitationSchema } from '@patientsim/domain/auth/auth.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Checks the invite link of the invite variant of sign-up; 400 INVITATION_INVALID when it is not usable. */
export function getSignupInvitation(params: { token: string; email: string }): Promise<SignUpInvitation> {
  return apiFetch('/api/users/auth/signup-invitation', { query: params, schema: SignUpInvitationSchema });
}

export const signupInvitationQueryOptions = (params: { token: string; email: string }) =>
  queryOptions({
    queryKey: ['auth', 'signup-invitation', params],
    queryFn: () => getSignupInvitation(params),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useSignupInvitation(params: { token: string; email: string }) {
  return useQuery(signupInvitationQueryOptions(params));
}
