import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Notification, NotificationAction } from '@patientsim/domain/notifications/notification.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { arePopupNotificationsDisabled, disablePopupNotifications } from '../../../lib/session-store';
import { pendingPopupsQueryOptions, usePendingPopups } from '../api/get-pending-popups';
import { markNotification, useMarkNotification } from '../api/mark-notification';
import { type InvitationActions, runNotificationAction } from './notification-actions';
import { NotificationAnimation } from './notification-animation';
import { titleColors } from './title-colors';

/** Verbatim from the spec (section 4). */
export const CONFIRM_LABELS = { first: 'Show me more', middle: 'Next', last: 'Go to my cases' } as const;
export const REMIND_ME_LABEL = 'Remind Me at Next Login';

/** The confirm button of slide `index` of `count`: the last one leads to the cases. */
export function confirmLabel(index: number, count: number): string {
  if (index >= count - 1) return CONFIRM_LABELS.last;
  if (index === 0) return CONFIRM_LABELS.first;
  return CONFIRM_LABELS.middle;
}

function Slide({
  notification,
  titleId,
  messageId,
  isBusy,
  onAction,
}: {
  notification: Notification;
  titleId: string;
  messageId: string;
  isBusy: boolean;
  onAction: (action: NotificationAction) => void;
}) {
  const colors = titleColors(notification.color);
  return (
    <>
      <DialogTitle id={titleId} sx={colors ?? undefined}>
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
            {notification.actions.map((action, index) => (
              <Button key={`${action.type}-${index}`} variant="outlined" disabled={isBusy} onClick={() => onAction(action)}>
                {action.label}
              </Button>
            ))}
          </Box>
        ) : null}
      </DialogContent>
    </>
  );
}

/**
 * The popup notification carousel (spec section 4): on app load, the unread popup notifications
 * show once as slides, each marked read when shown. 'Remind Me at Next Login' suppresses popups
 * until the next login and marks the slides shown here unread again.
 */
export function PopupNotifications({ invitationActions }: { invitationActions: InvitationActions }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mark = useMarkNotification();
  const [isDisabled] = useState(arePopupNotificationsDisabled);
  const pending = usePendingPopups({ isEnabled: !isDisabled });
  // The slides are the pending popups as first loaded: marking them read must not remove them.
  const [slides, setSlides] = useState<readonly Notification[] | null>(null);
  if (slides === null && pending.data) setSlides(pending.data);
  const [index, setIndex] = useState(0);
  const [isOpen, setIsOpen] = useState(true);
  const [isBusy, setIsBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);
  const shownIds = useRef(new Set<string>());
  const titleId = useId();
  const messageId = useId();

  const current = isOpen ? slides?.[index] : undefined;
  const currentId = current?._id;
  const markRead = mark.mutate;
  useEffect(() => {
    if (!currentId || shownIds.current.has(currentId)) return;
    shownIds.current.add(currentId);
    markRead({ id: currentId, isRead: true });
  }, [currentId, markRead]);

  if (!slides || !current) return null;
  const count = slides.length;
  const isLast = index >= count - 1;

  const close = () => {
    setIsOpen(false);
    // Shown once: the popups loaded for this app load are used up, even if the shell mounts again.
    queryClient.setQueryData(pendingPopupsQueryOptions().queryKey, []);
  };
  const goOn = () => {
    setActionError(null);
    if (isLast) close();
    else setIndex(index + 1);
  };
  const confirm = () => {
    if (!isLast) {
      goOn();
      return;
    }
    close();
    // The scenario library is a page of this app (decision 0028): the router goes there.
    void navigate(paths.scenarios);
  };
  const remindMe = () => {
    disablePopupNotifications();
    close();
    const shown = [...shownIds.current];
    void Promise.allSettled(shown.map((id) => markNotification({ id, isRead: false }))).then(() =>
      queryClient.invalidateQueries({ queryKey: ['notifications', 'list'] }),
    );
  };
  const onAction = (action: NotificationAction) => {
    setIsBusy(true);
    setActionError(null);
    runNotificationAction(action, {
      navigate: (to) => void navigate(to),
      origin: window.location.origin,
      invitationActions,
      finishSlide: goOn,
      close,
    })
      .catch((error: unknown) => setActionError(error))
      .finally(() => setIsBusy(false));
  };

  return (
    <Dialog open onClose={close} aria-labelledby={titleId} aria-describedby={messageId} maxWidth="sm" fullWidth>
      <Slide notification={current} titleId={titleId} messageId={messageId} isBusy={isBusy} onAction={onAction} />
      <Box sx={{ px: 3 }}>
        {actionError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {errorMessage(actionError, UNKNOWN_ERROR_MESSAGE)}
          </Alert>
        ) : null}
        {count > 1 ? <Typography variant="body2" color="text.secondary">{`${index + 1} of ${count}`}</Typography> : null}
      </Box>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={remindMe} disabled={isBusy}>
          {REMIND_ME_LABEL}
        </Button>
        <Button variant="contained" onClick={confirm} disabled={isBusy}>
          {confirmLabel(index, count)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
