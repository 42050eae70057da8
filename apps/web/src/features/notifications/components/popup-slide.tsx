import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Notification, NotificationAction } from '@patientsim/domain/notifications/notification.schemas';
import type { ReactNode } from 'react';
import { titleColors } from '../../../lib/notification-colors';
import { NotificationAnimation } from '../../../components/notification-animation';

/** Verbatim from the spec (section 4). */
export const CONFIRM_LABELS = { first: 'Show me more', middle: 'Next', last: 'Go to my cases' } as const;
export const REMIND_ME_LABEL = 'Remind Me at Next Login';

/** The confirm button of slide `index` of `count`: the last one leads to the cases. */
export function confirmLabel(index: number, count: number): string {
  if (index >= count - 1) return CONFIRM_LABELS.last;
  if (index === 0) return CONFIRM_LABELS.first;
  return CONFIRM_LABELS.middle;
}

/** What a slide shows of a notification. */
export type SlideContent = Pick<Notification, '_id' | 'title' | 'message' | 'color' | 'actions' | 'media' | 'animation'>;

/**
 * One slide of the popup notification carousel (spec section 4): the header in the notification's
 * colour, the animation, image, message and actions, the slide count and the carousel's buttons.
 * The popup shows it in its dialog; the announcement composer shows it as the preview, so what the
 * sender sees is what the target will see.
 */
export function PopupSlide({
  notification,
  index,
  count,
  titleId,
  messageId,
  titleComponent = 'h2',
  isBusy = false,
  error,
  onAction,
  onRemindMe,
  onConfirm,
}: {
  notification: SlideContent;
  index: number;
  count: number;
  titleId?: string;
  messageId?: string;
  /** The title's heading level where the slide sits (a dialog's title is an h2). */
  titleComponent?: 'h2' | 'h3' | 'h4';
  isBusy?: boolean;
  error?: ReactNode;
  onAction: (action: NotificationAction) => void;
  onRemindMe: () => void;
  onConfirm: () => void;
}) {
  const colors = titleColors(notification.color);
  return (
    <>
      <DialogTitle id={titleId} component={titleComponent} sx={colors ?? undefined}>
        {notification.title}
      </DialogTitle>
      <DialogContent sx={{ position: 'relative' }}>
        {notification.animation ? <NotificationAnimation key={notification._id} animation={notification.animation} /> : null}
        {notification.media?.type === 'IMAGE' ? (
          <Box
            component="img"
            src={notification.media.url}
            alt={notification.title}
            sx={{ display: 'block', maxWidth: '100%', maxHeight: 280, mx: 'auto', my: 2, borderRadius: 1 }}
          />
        ) : null}
        <DialogContentText id={messageId} sx={{ mt: 2, whiteSpace: 'pre-line' }}>
          {notification.message}
        </DialogContentText>
        {notification.actions.length > 0 ? (
          <Box sx={{ mt: 2, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {notification.actions.map((action, actionIndex) => (
              <Button key={`${action.type}-${actionIndex}`} variant="outlined" disabled={isBusy} onClick={() => onAction(action)}>
                {action.label}
              </Button>
            ))}
          </Box>
        ) : null}
      </DialogContent>
      <Box sx={{ px: 3 }}>
        {error ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        ) : null}
        {count > 1 ? <Typography variant="body2" color="text.secondary">{`${index + 1} of ${count}`}</Typography> : null}
      </Box>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onRemindMe} disabled={isBusy}>
          {REMIND_ME_LABEL}
        </Button>
        <Button variant="contained" onClick={onConfirm} disabled={isBusy}>
          {confirmLabel(index, count)}
        </Button>
      </DialogActions>
    </>
  );
}
