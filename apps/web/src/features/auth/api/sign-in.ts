import type { SignInBody } from '@patientsim/domain/auth/auth.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Signs in with e-mail and password; the server answers with the session cookie. */
export function signIn(body: SignInBody): Promise<unknown> {
  return apiFetch('/api/users/auth/sign-in', { method: 'POST', body });
}

export const signInMutationOptions = () => mutationOptions({ mutationKey: ['auth', 'sign-in'], mutationFn: signIn });

export function useSignIn() {
  return useMutation(signInMutationOptions());
}
