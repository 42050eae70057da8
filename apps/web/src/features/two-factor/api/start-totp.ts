import { type PasswordConfirmation, type TotpEnrolment, TotpEnrolmentSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * Starts setting up an authenticator app: the secret to scan and the recovery codes. Nothing is
 * enabled until the first code is verified (`verifyTotp`), so the status does not change yet.
 */
export function startTotp(body: PasswordConfirmation): Promise<TotpEnrolment> {
  return apiFetch('/api/users/account/two-factor/totp', { method: 'POST', body, schema: TotpEnrolmentSchema });
}

export function useStartTotp() {
  return useMutation({ mutationKey: ['account', 'two-factor', 'start-totp'], mutationFn: startTotp });
}
