import type { ResetPasswordBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Sets a new password with the token from the reset e-mail. */
export function resetPassword(body: ResetPasswordBody) {
  return apiFetch('/api/users/auth/reset-password', { method: 'POST', body, schema: OkSchema });
}

export const resetPasswordMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'reset-password'], mutationFn: resetPassword });

export function useResetPassword() {
  return useMutation(resetPasswordMutationOptions());
}
