import { FinishedInvitationSchema } from '@patientsim/domain/invitations/invitation.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { changeActiveOrg } from '../../../lib/active-org';
import { apiFetch } from '../../../lib/api-client';
import { reloadPage } from '../../../lib/browser';

/** Verbatim from the spec, spelling included. */
export const ACCEPT_INVITE_FALLBACK_ERROR = 'Unkown error when accepting invite';

/**
 * Accepts an invitation addressed to the signed-in user (from the profile or a notification):
 * finish it, make its organisation the active one, renew the session, reload (spec section 4).
 */
export async function acceptInvite({ inviteId, email }: { inviteId: string; email: string }): Promise<void> {
  const { orgId } = await apiFetch('/api/users/invitations/finish-invite', {
    method: 'POST',
    body: { inviteId, email },
    schema: FinishedInvitationSchema,
  });
  await changeActiveOrg({ orgId });
  reloadPage();
}

export const acceptInviteMutationOptions = () =>
  mutationOptions({ mutationKey: ['invitations', 'accept'], mutationFn: acceptInvite });

export function useAcceptInvite() {
  return useMutation(acceptInviteMutationOptions());
}
