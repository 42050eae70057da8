import type { ChangePasswordBody } from '@patientsim/domain/account/account.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { renewSession } from '../../../lib/id-token';

/**
 * Changes the password after checking the old one. The server checks the bearer and the session
 * cookie belong to the same person, ends every session (and the tokens bound to them) and answers
 * with a fresh session cookie: the token is renewed on it at once.
 */
export async function changePassword(body: ChangePasswordBody) {
  const answer = await apiFetch('/api/users/account/change-password', {
    method: 'POST',
    body,
    schema: OkSchema,
  });
  await renewSession();
  return answer;
}

export const changePasswordMutationOptions = () =>
  mutationOptions({ mutationKey: ['account', 'change-password'], mutationFn: changePassword });

export function useChangePassword() {
  return useMutation(changePasswordMutationOptions());
}
