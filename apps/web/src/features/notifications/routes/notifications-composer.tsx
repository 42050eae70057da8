import Divider from '@mui/material/Divider';
import { ScreenHeader } from '../../../components/screen-header';
import { NotificationComposer } from '../components/notification-composer';
import { SentNotifications } from '../components/sent-notifications';

/** /access/notifications: the announcements composer and the read counts of those sent (spec section 2). */
export function NotificationsComposerRoute() {
  return (
    <>
      <ScreenHeader title="Notifications" />
      <NotificationComposer />
      <Divider sx={{ my: 4 }} />
      <SentNotifications />
    </>
  );
}
