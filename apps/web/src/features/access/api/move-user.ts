import type { MoveUserBody } from '@patientsim/domain/users/users.schemas';
import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { allUsersKey } from './search-all-users';
import { userDetailsKey } from './get-user-details';

/** Moves a person into another organisation (POST /users/{id}/move). */
export function moveUser({ userId, ...body }: MoveUserBody & { userId: string }) {
  return apiFetch(`/api/users/users/${encodeURIComponent(userId)}/move`, {
    method: 'POST',
    body,
    schema: OkSchema,
  });
}

export function useMoveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'move'],
    mutationFn: moveUser,
    // Their memberships changed, and with them the member lists and counts of both organisations.
    onSuccess: async (_result, { userId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userDetailsKey(userId) }),
        queryClient.invalidateQueries({ queryKey: allUsersKey }),
        queryClient.invalidateQueries({ queryKey: ['groups'] }),
      ]);
    },
  });
}
