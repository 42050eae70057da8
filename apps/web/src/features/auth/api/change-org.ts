import type { ChangeOrgBody } from '@patientsim/domain/auth/auth.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { renewSession, requireIdToken } from '../../../lib/id-token';

/** Makes `orgId` the active organisation, then renews the token so it carries the new one. */
export async function changeOrg(body: ChangeOrgBody) {
  await apiFetch('/api/users/auth/changeOrg', { method: 'POST', body, token: requireIdToken(), schema: OkSchema });
  return renewSession();
}

export const changeOrgMutationOptions = () => mutationOptions({ mutationKey: ['auth', 'change-org'], mutationFn: changeOrg });

export function useChangeOrg() {
  return useMutation(changeOrgMutationOptions());
}
