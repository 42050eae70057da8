import type { VerificationEmailBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Sends the e-mail verification message again. */
export function sendVerificationEmail(body: VerificationEmailBody) {
  return apiFetch('/api/users/jobs/verification-email', {
    method: 'POST',
    body,
    schema: OkSchema,
  });
}

export const sendVerificationEmailMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'send-verification-email'], mutationFn: sendVerificationEmail });

export function useSendVerificationEmail() {
  return useMutation(sendVerificationEmailMutationOptions());
}
