import type { SignInBody } from '@patientsim/domain/auth/auth.schemas';
import type { SignInResult } from '@patientsim/domain/auth/two-factor.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * Signs in with e-mail and password; the server answers with the session cookie, and with the
 * license token while the license is still to accept; or, for an account with a second factor,
 * with the methods to prove it by (no session yet: the second step opens it). The answer's schema
 * (and zod) load with the first sign-in, not with the page (decision 0062).
 */
export async function signIn(body: SignInBody): Promise<SignInResult> {
  const { SignInResultSchema } = await import('@patientsim/domain/auth/two-factor.schemas');
  return apiFetch('/api/users/auth/sign-in', { method: 'POST', body, schema: SignInResultSchema });
}

export const signInMutationOptions = () => mutationOptions({ mutationKey: ['auth', 'sign-in'], mutationFn: signIn });

export function useSignIn() {
  return useMutation(signInMutationOptions());
}
