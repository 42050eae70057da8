import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Marks a notification read or unread for the signed-in user. */
export async function markNotification({ id, isRead }: { id: string; isRead: boolean }): Promise<void> {
  await apiFetch(`/api/users/notifications/${encodeURIComponent(id)}/${isRead ? 'read' : 'unread'}`, {
    method: 'POST',
    schema: OkSchema,
  });
}

/**
 * Marks and refreshes the notifications list. The carousel's pending popups are not refetched:
 * they are read once per app load.
 */
export function useMarkNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['notifications', 'mark'],
    mutationFn: markNotification,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications', 'list'] }),
  });
}
