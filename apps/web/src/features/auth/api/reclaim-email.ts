import { type ReclaimEmailBody, ReclaimEmailResultSchema } from '@patientsim/domain/account/account.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * Follows a "this wasn't me" link: the account goes back to the address the link was mailed to and
 * is signed out everywhere; the answer carries a reset token to choose a new password with.
 */
export function reclaimEmail(body: ReclaimEmailBody) {
  return apiFetch('/api/users/account/reclaim-email', { method: 'POST', body, schema: ReclaimEmailResultSchema });
}

export const reclaimEmailMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'reclaim-email'], mutationFn: reclaimEmail });

export function useReclaimEmail() {
  return useMutation(reclaimEmailMutationOptions());
}
