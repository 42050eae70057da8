import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { allUsersKey } from './search-all-users';
import { userDetailsKey } from './get-user-details';

/** Deletes an account: archived in its organisations, not erased (DELETE /users/{id}). */
export function deleteUser(userId: string) {
  return apiFetch(`/api/users/users/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    schema: OkSchema,
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'delete'],
    mutationFn: deleteUser,
    // The account is flagged deleted, and it left the member lists of its organisations.
    onSuccess: async (_result, userId) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userDetailsKey(userId) }),
        queryClient.invalidateQueries({ queryKey: allUsersKey }),
        queryClient.invalidateQueries({ queryKey: ['groups'] }),
      ]);
    },
  });
}
