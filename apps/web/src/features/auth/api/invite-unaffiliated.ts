import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * Plain sign-up, e-mail first (decision 9): the server e-mails a link to the invite variant. The
 * answer's schema (and zod) load with the first request, not with the page (decision 0062).
 */
export async function inviteUnaffiliated(body: InviteUnaffiliatedBody) {
  const { OkSchema } = await import('@patientsim/domain/common/api.schemas');
  return apiFetch('/api/users/invitations/invite-unaffiliated', { method: 'POST', body, schema: OkSchema });
}

export const inviteUnaffiliatedMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'invite-unaffiliated'], mutationFn: inviteUnaffiliated });

export function useInviteUnaffiliated() {
  return useMutation(inviteUnaffiliatedMutationOptions());
}
