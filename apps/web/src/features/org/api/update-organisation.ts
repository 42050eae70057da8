import type { UpdateGroupBody } from '@patientsim/domain/groups/group-management.schemas';
import { GroupSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { renewSession, storeGroups } from '../../../lib/id-token';
import { getUserGroups } from '../../../lib/user-groups';
import { orgUsersKey } from './get-org-users';

export type OrganisationChanges = Pick<
  UpdateGroupBody,
  'name' | 'about' | 'ownerId' | 'seats' | 'productType' | 'inactive' | 'dev' | 'testing' | 'debug' | 'ai'
>;

/**
 * Changes an organisation, then renews the session and the stored groups: the name, product type,
 * status and key owner are part of the claims and of the groups the app decides with (spec
 * section 4: a key owner or product type change renews the session). `renewsSession: false` when
 * the change cannot affect the signed-in user (the provider changing an organisation they are not in).
 */
export async function updateOrganisation({
  orgId,
  changes,
  renewsSession = true,
}: {
  orgId: string;
  changes: OrganisationChanges;
  renewsSession?: boolean;
}): Promise<Group> {
  const body: UpdateGroupBody = changes;
  const updated = await apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}`, {
    method: 'PATCH',
    body,
    schema: GroupSchema,
  });
  if (!renewsSession) return updated;
  const result = await renewSession();
  storeGroups(await getUserGroups({ userId: result.idTokenPayload.sub, idToken: result.idToken }), result.idTokenPayload);
  return updated;
}

/** The organisation itself is answered by the call; its key owner (and where the users table shows it) may have changed. */
export function useUpdateOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'update-organisation'],
    mutationFn: updateOrganisation,
    onSuccess: async (updated, { orgId, changes }) => {
      queryClient.setQueryData(['groups', orgId], updated);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['groups', orgId, 'key-owner'] }),
        // The users table marks the key owner.
        ...(changes.ownerId === undefined ? [] : [queryClient.invalidateQueries({ queryKey: orgUsersKey(orgId) })]),
        // The provider's organisations list shows seats, product type and status.
        queryClient.invalidateQueries({ queryKey: ['groups', 'organizations'] }),
      ]);
    },
  });
}
