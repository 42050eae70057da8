import type { TotpVerifyBody } from '@patientsim/domain/auth/two-factor.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { renewSession } from '../../../lib/id-token';
import { readLoginResult } from '../../../lib/session-store';
import { TWO_FACTOR_STATUS_QUERY_KEY } from './get-two-factor-status';

/**
 * Confirms the app with its first code: from then on, signing in asks for one. The server replaces
 * the session with one that has used the factor (a new cookie): a signed-in person's ID token,
 * which names the old one, is renewed before anything else is asked. The required set-up has no
 * token yet; the callback gets the first one.
 */
export async function verifyTotp(body: TotpVerifyBody): Promise<void> {
  await apiFetch('/api/users/account/two-factor/totp/verify', { method: 'POST', body, schema: OkSchema });
  if (readLoginResult()) await renewSession();
}

export function useVerifyTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'two-factor', 'verify-totp'],
    mutationFn: verifyTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_QUERY_KEY }),
  });
}
