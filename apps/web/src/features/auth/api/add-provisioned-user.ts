import { ProvisionedLoginSchema } from '@patientsim/domain/account/provisioning.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { storeLoginResult } from '../../../lib/id-token';

/**
 * Creates the provisioned account with its first password; the server signs it in (session
 * cookie) and answers a login result, stored like the callback stores one.
 */
export async function addProvisionedUser(body: { password: string; token: string }): Promise<void> {
  const login = await apiFetch('/api/users/integrations/add-user', { method: 'POST', body, schema: ProvisionedLoginSchema });
  // The active groups are derived from the token as after any login (they match groupData.activeGroups).
  storeLoginResult({ idToken: login.idToken, idTokenPayload: login.idTokenPayload }, login.groupData.groups);
}

export const addProvisionedUserMutationOptions = () =>
  mutationOptions({ mutationKey: ['auth', 'add-provisioned-user'], mutationFn: addProvisionedUser });

export function useAddProvisionedUser() {
  return useMutation(addProvisionedUserMutationOptions());
}
