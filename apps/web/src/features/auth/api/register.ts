import type { RegisterBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * The invite variant of sign-up without an invitation token: creates the account with its address
 * unverified and mails a verification link. Nobody is signed in.
 */
export function register(body: RegisterBody) {
  return apiFetch('/api/users/auth/register', { method: 'POST', body, schema: OkSchema });
}

export const registerMutationOptions = () => mutationOptions({ mutationKey: ['auth', 'register'], mutationFn: register });

export function useRegister() {
  return useMutation(registerMutationOptions());
}
