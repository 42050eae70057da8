import Dialog from '@mui/material/Dialog';
import type { Notification, NotificationAction } from '@patientsim/domain/notifications/notification.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PopupSlide } from './popup-slide';
import { paths } from '../../../config/paths';
import { UNKNOWN_ERROR_MESSAGE, errorMessage } from '../../../lib/api-client';
import { arePopupNotificationsDisabled, disablePopupNotifications } from '../../../lib/session-store';
import { pendingPopupsQueryOptions, usePendingPopups } from '../api/get-pending-popups';
import { markNotification, useMarkNotification } from '../api/mark-notification';
import { type InvitationActions, runNotificationAction } from './notification-actions';

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
      <PopupSlide
        notification={current}
        index={index}
        count={count}
        titleId={titleId}
        messageId={messageId}
        isBusy={isBusy}
        error={actionError ? errorMessage(actionError, UNKNOWN_ERROR_MESSAGE) : null}
        onAction={onAction}
        onRemindMe={remindMe}
        onConfirm={confirm}
      />
    </Dialog>
  );
}
