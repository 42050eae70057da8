import { type PasswordConfirmation, type RecoveryCodes, RecoveryCodesSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { TWO_FACTOR_STATUS_QUERY_KEY } from './get-two-factor-status';

/** A new set of recovery codes, shown once; the old ones stop working. */
export function renewRecoveryCodes(body: PasswordConfirmation): Promise<RecoveryCodes> {
  return apiFetch('/api/users/account/two-factor/recovery-codes', { method: 'POST', body, schema: RecoveryCodesSchema });
}

export function useRenewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'two-factor', 'renew-recovery-codes'],
    mutationFn: renewRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_QUERY_KEY }),
  });
}
