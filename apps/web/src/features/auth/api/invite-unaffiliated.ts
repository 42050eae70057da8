import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Plain sign-up, e-mail first (decision 9): the server e-mails a link to the invite variant. */
export function inviteUnaffiliated(body: InviteUnaffiliatedBody) {
  return apiFetch('/api/users/invitations/invite-unaffiliated', { method: 'POST', body, schema: OkSchema });
}

export const inviteUnaffiliatedMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'invite-unaffiliated'], mutationFn: inviteUnaffiliated });

export function useInviteUnaffiliated() {
  return useMutation(inviteUnaffiliatedMutationOptions());
}
