import { type Notification, NotificationListResponseSchema } from '@patientsim/domain/notifications/notification.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { sortNewestFirst } from './get-notifications';

export const POPUP_MESSAGE_TYPE = 'POPUP_MESSAGE';

/** The unread popup notifications: the slides of the carousel (spec section 4). */
export async function getPendingPopups(): Promise<Notification[]> {
  const response = await apiFetch('/api/users/notifications/pending', {
    schema: NotificationListResponseSchema,
  });
  return sortNewestFirst(response.data.notifications.filter((notification) => notification.type === POPUP_MESSAGE_TYPE));
}

export const pendingPopupsQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'pending-popups'],
    queryFn: getPendingPopups,
    // Read once per app load: the carousel is shown once.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export function usePendingPopups({ isEnabled }: { isEnabled: boolean }) {
  return useQuery({ ...pendingPopupsQueryOptions(), enabled: isEnabled });
}
