import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { TWO_FACTOR_STATUS_QUERY_KEY } from './get-two-factor-status';

/** Removes one passkey (refused while it is the last required factor). */
export async function removePasskey(passkeyId: string): Promise<void> {
  await apiFetch(`/api/users/account/passkeys/${encodeURIComponent(passkeyId)}`, { method: 'DELETE', schema: OkSchema });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'two-factor', 'remove-passkey'],
    mutationFn: removePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_QUERY_KEY }),
  });
}
