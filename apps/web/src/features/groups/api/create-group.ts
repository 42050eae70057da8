import type { CreateGroupBody } from '@patientsim/domain/groups/group-management.schemas';
import { GroupSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Creates a group inside an organisation; the server adds the name prefix (decision 10). */
export function createGroup({ orgId, name }: { orgId: string; name: string }): Promise<Group> {
  const body: CreateGroupBody = { name, description: JSON.stringify({ parent: orgId }) };
  return apiFetch('/api/users/extension/groups', { method: 'POST', body, schema: GroupSchema });
}

/** Only the organisation's group list changes. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'create'],
    mutationFn: createGroup,
    onSuccess: (_group, { orgId }) => queryClient.invalidateQueries({ queryKey: ['groups', orgId, 'nested'] }),
  });
}
