import type { SignUpBody } from '@patientsim/domain/auth/auth.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The invite variant of sign-up: creates the account and answers with the session cookie. */
export function signUp(body: SignUpBody): Promise<unknown> {
  return apiFetch('/api/users/auth/sign-up', { method: 'POST', body });
}

export const signUpMutationOptions = () => mutationOptions({ mutationKey: ['auth', 'sign-up'], mutationFn: signUp });

export function useSignUp() {
  return useMutation(signUpMutationOptions());
}
