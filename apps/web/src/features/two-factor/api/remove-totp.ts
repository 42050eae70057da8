import type { PasswordConfirmation } from '@patientsim/domain/auth/two-factor.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { TWO_FACTOR_STATUS_QUERY_KEY } from './get-two-factor-status';

/** Removes the authenticator app and its recovery codes (refused while it is the last required factor). */
export async function removeTotp(body: PasswordConfirmation): Promise<void> {
  await apiFetch('/api/users/account/two-factor/totp/remove', { method: 'POST', body, schema: OkSchema });
}

export function useRemoveTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'two-factor', 'remove-totp'],
    mutationFn: removeTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_QUERY_KEY }),
  });
}
