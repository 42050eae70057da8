import type { AcceptLicenseBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Records the acceptance of the license version with the short-lived license token (decision 14). */
export function acceptLicense(body: AcceptLicenseBody) {
  return apiFetch('/api/users/auth/accept-license', { method: 'POST', body, schema: OkSchema });
}

export const acceptLicenseMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'accept-license'], mutationFn: acceptLicense });

export function useAcceptLicense() {
  return useMutation(acceptLicenseMutationOptions());
}
