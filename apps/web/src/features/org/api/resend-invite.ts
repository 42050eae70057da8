import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Mails an organisation's pending invitation to `email` again, with a fresh link. */
export async function resendInvite({ orgId, email }: { orgId: string; email: string }): Promise<void> {
  await apiFetch(`/api/users/invites/org/${encodeURIComponent(orgId)}/resend`, {
    method: 'POST',
    query: { email },
    schema: OkSchema,
  });
}

/** Nothing cached changes: the invitation stays pending with the same role and address. */
export function useResendInvite(orgId: string) {
  return useMutation({
    mutationKey: ['invitations', 'resend', orgId],
    mutationFn: (email: string) => resendInvite({ orgId, email }),
  });
}
