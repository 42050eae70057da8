import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

/** The answer of GET /auth/signup-invitation (not yet in the domain package). */
export const SignupInvitationSchema = z.object({ email: z.string(), orgName: z.string().nullable() });
export type SignupInvitation = z.infer<typeof SignupInvitationSchema>;

/** Checks the invite link of the invite variant of sign-up; 400 INVITATION_INVALID when it is not usable. */
export function getSignupInvitation(params: { token: string; email: string }): Promise<SignupInvitation> {
  return apiFetch('/api/users/auth/signup-invitation', { query: params, schema: SignupInvitationSchema });
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
