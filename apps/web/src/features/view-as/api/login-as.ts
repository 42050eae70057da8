import { type LoginAsBody, LoginAsResponseSchema } from '@patientsim/domain/auth/view-as.schemas';
import type { Group } from '@patientsim/domain/groups/group.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { storeLoginResult } from '../../../lib/id-token';
import { getUserGroups } from '../../../lib/user-groups';

/**
 * View As User (spec section 7, `POST /auth/loginAs`): stores the person's token as the login result,
 * marked `fromSkeletonKey`, with their groups. Every later call of this browser is theirs until the
 * view ends.
 */
export async function loginAs(body: LoginAsBody): Promise<void> {
  const response = await apiFetch('/api/users/auth/loginAs', {
    method: 'POST',
    body,
    schema: LoginAsResponseSchema,
  });
  const { idToken, idTokenPayload } = response.data;
  let groups: Group[] = [];
  try {
    groups = await getUserGroups({ userId: idTokenPayload.sub, idToken });
  } catch {
    // The token is good; the menus that need the groups fetch them again.
  }
  storeLoginResult({ idToken, idTokenPayload, fromSkeletonKey: true }, groups);
}

export function useLoginAs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginAs,
    // Everything cached was the super admin's: none of it may show in the person's view.
    onSuccess: () => queryClient.removeQueries(),
  });
}
