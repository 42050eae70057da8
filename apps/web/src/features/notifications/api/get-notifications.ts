import { type Notification, NotificationListResponseSchema } from '@patientsim/domain/notifications/notification.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Newest first (decision 6), whatever order the answer came in. */
export function sortNewestFirst(notifications: readonly Notification[]): Notification[] {
  return [...notifications].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
}

/** The signed-in user's notifications, read and unread. */
export async function getNotifications(): Promise<Notification[]> {
  const response = await apiFetch('/api/users/notifications', {
    schema: NotificationListResponseSchema,
  });
  return sortNewestFirst(response.data.notifications);
}

export const notificationsQueryOptions = () => queryOptions({ queryKey: ['notifications', 'list'], queryFn: getNotifications });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
