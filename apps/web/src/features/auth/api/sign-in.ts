import type { SignInAnswer, SignInBody } from '@patientsim/domain/auth/auth.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * Signs in with e-mail and password; the server answers with the session cookie, and with the
 * license token while the license is still to accept. The answer's schema (and zod) load with the
 * first sign-in, not with the page (decision 0062).
 */
export async function signIn(body: SignInBody): Promise<SignInAnswer> {
  const { SignInAnswerSchema } = await import('@patientsim/domain/auth/auth.schemas');
  return apiFetch('/api/users/auth/sign-in', { method: 'POST', body, schema: SignInAnswerSchema });
}

export const signInMutationOptions = () => mutationOptions({ mutationKey: ['auth', 'sign-in'], mutationFn: signIn });

export function useSignIn() {
  return useMutation(signInMutationOptions());
}
