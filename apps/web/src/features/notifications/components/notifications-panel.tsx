import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { Notification } from '@patientsim/domain/notifications/notification.schemas';
import { useId } from 'react';
import { ErrorBoundary } from '../../../components/error-boundary';
import { LoadingState } from '../../../components/loading-state';
import { VisuallyHidden } from '../../../components/visually-hidden';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotification } from '../api/mark-notification';
import { accentColor } from '../../../lib/notification-colors';

/** Verbatim from the spec (section 8). */
export const NO_NOTIFICATIONS_MESSAGE = 'No notifications';

function NotificationItem({ notification }: { notification: Notification }) {
  const mark = useMarkNotification();
  const accent = accentColor(notification.color);
  const isRead = notification.read;
  return (
    <Box component="li" sx={{ borderLeft: 4, borderColor: accent ?? 'divider', pl: 1.5, py: 1, mb: 1, listStyle: 'none' }}>
      <Typography variant="body2" component="p" sx={{ fontWeight: isRead ? 400 : 700 }}>
        {notification.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
        {notification.message}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          {`${notification.date.slice(0, 10)} · ${isRead ? 'Read' : 'Unread'}`}
        </Typography>
        <Button
          size="small"
          loading={mark.isPending}
          onClick={() => mark.mutate({ id: notification._id, isRead: !isRead })}
          sx={{ minWidth: 0, px: 1 }}
        >
          {isRead ? 'Mark as unread' : 'Mark as read'}
          <VisuallyHidden>{`: ${notification.title}`}</VisuallyHidden>
        </Button>
      </Box>
      {mark.isError ? (
        <Typography variant="caption" color="error" role="alert">
          {errorMessage(mark.error, UNKNOWN_ERROR_MESSAGE)}
        </Typography>
      ) : null}
    </Box>
  );
}

function NotificationsList() {
  const notifications = useNotifications();
  if (notifications.isPending) return <LoadingState label="Loading notifications..." />;
  if (notifications.isError) {
    return (
      <Alert severity="error" sx={{ mx: 1 }}>
        {errorMessage(notifications.error, UNKNOWN_ERROR_MESSAGE)}
      </Alert>
    );
  }
  if (notifications.data.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ px: 1 }}>
        {NO_NOTIFICATIONS_MESSAGE}
      </Typography>
    );
  }
  return (
    <Box component="ul" sx={{ m: 0, p: 0 }}>
      {notifications.data.map((notification) => (
        <NotificationItem key={notification._id} notification={notification} />
      ))}
    </Box>
  );
}

/** The side nav's Notifications section (spec section 2): newest first, read or unread. It can fail alone. */
export function NotificationsPanel() {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ px: 2, py: 1 }}>
      <Typography id={headingId} component="h2" variant="subtitle2" sx={{ mb: 1 }}>
        Notifications
      </Typography>
      <ErrorBoundary message="The notifications could not be shown.">
        <NotificationsList />
      </ErrorBoundary>
    </Box>
  );
}
