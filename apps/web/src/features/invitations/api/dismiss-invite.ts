import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Verbatim from the spec (section 8, confirms). */
export const DISMISS_INVITE_CONFIRM =
  'Dismissing this invitation will remove your ability to access this Organization’s case data. You will need to be re-invited by the account administrator if you wish to gain access.';

/** Dismisses an invitation addressed to the signed-in user: it is hidden from then on. */
export async function dismissInvite(inviteId: string): Promise<void> {
  await apiFetch(`/api/users/invites/dismiss/${encodeURIComponent(inviteId)}`, {
    method: 'POST',
    schema: OkSchema,
  });
}

export function useDismissInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['invitations', 'dismiss'],
    mutationFn: dismissInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
  });
}
