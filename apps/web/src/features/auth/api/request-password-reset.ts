import type { ResetRequestBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Sends the password reset e-mail; answers ok whether or not the address has an account. */
export function requestPasswordReset(body: ResetRequestBody) {
  return apiFetch('/api/users/auth/request-password-reset', { method: 'POST', body, schema: OkSchema });
}

export const requestPasswordResetMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'request-password-reset'], mutationFn: requestPasswordReset });

export function useRequestPasswordReset() {
  return useMutation(requestPasswordResetMutationOptions());
}
