import type { UpdateGroupBody } from '@patientsim/domain/groups/group-management.schemas';
import { GroupSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Renames a group (the server keeps or adds the parent prefix). */
export function renameGroup({ groupId, name }: { groupId: string; orgId: string; name: string }): Promise<Group> {
  const body: UpdateGroupBody = { name };
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}`, {
    method: 'PATCH',
    body,
    schema: GroupSchema,
  });
}

/** The group itself and the lists that show its name: the organisation's and the members' own. */
export function useRenameGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'rename'],
    mutationFn: renameGroup,
    onSuccess: async (_group, { groupId, orgId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['groups', groupId], exact: true }),
        queryClient.invalidateQueries({ queryKey: ['groups', orgId, 'nested'] }),
        queryClient.invalidateQueries({ queryKey: ['groups', 'user'] }),
      ]);
    },
  });
}
