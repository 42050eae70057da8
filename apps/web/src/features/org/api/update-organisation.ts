import type { UpdateGroupBody } from '@patientsim/domain/groups/group-management.schemas';
import { GroupSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { renewSession, requireIdToken, storeGroups } from '../../../lib/id-token';
import { getUserGroups } from '../../../lib/user-groups';

export type OrganisationChanges = Pick<UpdateGroupBody, 'name' | 'about' | 'ownerId' | 'seats' | 'productType' | 'inactive'>;

/**
 * Changes an organisation, then renews the session and the stored groups: the name, product type,
 * status and key owner are part of the claims and of the groups the app decides with (spec
 * section 4: a key owner or product type change renews the session).
 */
export async function updateOrganisation({ orgId, changes }: { orgId: string; changes: OrganisationChanges }): Promise<Group> {
  const body: UpdateGroupBody = changes;
  const updated = await apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}`, {
    method: 'PATCH',
    body,
    token: requireIdToken(),
    schema: GroupSchema,
  });
  const result = await renewSession();
  storeGroups(await getUserGroups({ userId: result.idTokenPayload.sub, idToken: result.idToken }), result.idTokenPayload);
  return updated;
}

/** The organisation itself is answered by the call; its key owner query may have changed. */
export function useUpdateOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'update-organisation'],
    mutationFn: updateOrganisation,
    onSuccess: async (updated, { orgId }) => {
      queryClient.setQueryData(['groups', orgId], updated);
      await queryClient.invalidateQueries({ queryKey: ['groups', orgId, 'key-owner'] });
    },
  });
}
