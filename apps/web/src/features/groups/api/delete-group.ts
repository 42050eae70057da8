import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Deletes a group of an organisation (never the organisation itself). */
export async function deleteGroup({ groupId }: { groupId: string; orgId: string }): Promise<void> {
  await apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}`, {
    method: 'DELETE',
    schema: OkSchema,
  });
}

/** The lists that showed it; its own query is dropped rather than refetched (it is gone). */
export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'delete'],
    mutationFn: deleteGroup,
    onSuccess: async (_result, { groupId, orgId }) => {
      queryClient.removeQueries({ queryKey: ['groups', groupId] });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['groups', orgId, 'nested'] }),
        queryClient.invalidateQueries({ queryKey: ['groups', 'user'] }),
      ]);
    },
  });
}
