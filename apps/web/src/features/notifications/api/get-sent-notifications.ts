import { type SentNotificationPage, SentNotificationPageSchema } from '@patientsim/domain/notifications/notification.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export const SENT_NOTIFICATIONS_KEY = ['notifications', 'sent'] as const;

/** The announcements sent, newest first, with their read counts (GET /notifications/sent). */
export function getSentNotifications(page: number): Promise<SentNotificationPage> {
  return apiFetch('/api/users/notifications/sent', {
    query: { page },
    schema: SentNotificationPageSchema,
  });
}

export const sentNotificationsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...SENT_NOTIFICATIONS_KEY, { page }],
    queryFn: () => getSentNotifications(page),
    placeholderData: keepPreviousData,
  });

export function useSentNotifications(page: number) {
  return useQuery(sentNotificationsQueryOptions(page));
}
