import {
  type NewNotificationBody,
  type Notification,
  SentNotificationResponseSchema,
} from '@patientsim/domain/notifications/notification.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { SENT_NOTIFICATIONS_KEY } from './get-sent-notifications';

/** Sends an announcement (spec section 7, `POST /notifications`). */
export async function sendNotification(body: NewNotificationBody): Promise<Notification> {
  const response = await apiFetch('/api/users/notifications', {
    method: 'POST',
    body,
    schema: SentNotificationResponseSchema,
  });
  return response.data.notification;
}

export function useSendNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendNotification,
    // Only the list of sent announcements changes (the sender's own notifications do not).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SENT_NOTIFICATIONS_KEY }),
  });
}
