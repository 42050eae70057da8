import { type SignInAnswer, SignInAnswerSchema } from '@patientsim/domain/auth/auth.schemas';
import type { SecondFactorBody } from '@patientsim/domain/auth/two-factor.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * The sign-in's second step: a code of the authenticator app, or one recovery code. The two-factor
 * cookie of the password step names the sign-in; the answer opens the session, as a sign-in does.
 */
export function verifySecondFactor(body: SecondFactorBody): Promise<SignInAnswer> {
  return apiFetch('/api/users/auth/sign-in/two-factor', { method: 'POST', body, schema: SignInAnswerSchema });
}

export function useVerifySecondFactor() {
  return useMutation({ mutationKey: ['auth', 'sign-in', 'two-factor'], mutationFn: verifySecondFactor });
}
