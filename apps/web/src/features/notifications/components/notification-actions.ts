import type { NotificationAction } from '@patientsim/domain/notifications/notification.schemas';
import { paths } from '../../../config/paths';
import { assignLocation, openInNewTab } from '../../../lib/browser';
import { toRouterPath, toSameOriginPath } from '../../../lib/safe-path';

/** What joining or dismissing an invitation means; given by the app (it belongs to invitations). */
export type InvitationActions = {
  /** Finish the invitation, make its organisation the active one, renew, reload. */
  accept: (inviteId: string) => Promise<void>;
  dismiss: (inviteId: string) => Promise<void>;
};

export type NotificationActionContext = {
  /** A route of this app (relative to its base). */
  navigate: (to: string) => void;
  origin: string;
  invitationActions: InvitationActions;
  /** Done with this slide: mark it read and go on (or close after the last). */
  finishSlide: () => void;
  /** Close the carousel. */
  close: () => void;
};

/** Prefix of the window events an EVENT_HUB action raises: `patientsim:${metadata.event}`. */
export const EVENT_HUB_PREFIX = 'patientsim:';

function textField(metadata: NotificationAction['metadata'], key: string): string | null {
  const value = metadata?.[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * Does what a notification action's type says (spec section 3, Action): URL opens the link
 * (same-origin in this tab, other sites in a new one), DISMISS ends the slide, CASE_LINK opens the
 * case in the scenario library, ACCEPT_INVITE and DISMISS_INVITE answer an invitation, EVENT_HUB
 * raises a window event for whatever page listens.
 */
export async function runNotificationAction(action: NotificationAction, context: NotificationActionContext): Promise<void> {
  switch (action.type) {
    case 'URL': {
      const url = textField(action.metadata, 'url');
      if (!url) return;
      const sameOrigin = toSameOriginPath(url, context.origin);
      if (sameOrigin) {
        context.close();
        const routerPath = toRouterPath(sameOrigin);
        if (routerPath) context.navigate(routerPath);
        else assignLocation(sameOrigin);
      } else if (/^https?:\/\//i.test(url)) {
        openInNewTab(url);
      }
      return;
    }
    case 'DISMISS':
      context.finishSlide();
      return;
    case 'CASE_LINK': {
      const caseId = textField(action.metadata, 'caseId');
      if (!caseId) return;
      context.close();
      // The scenario library is a page of this app (decision 0028): the router goes there.
      context.navigate(`${paths.scenarios}?${new URLSearchParams({ caseId }).toString()}`);
      return;
    }
    case 'ACCEPT_INVITE': {
      const inviteId = textField(action.metadata, 'inviteId');
      if (inviteId) await context.invitationActions.accept(inviteId);
      return;
    }
    case 'DISMISS_INVITE': {
      const inviteId = textField(action.metadata, 'inviteId');
      if (!inviteId) return;
      await context.invitationActions.dismiss(inviteId);
      context.finishSlide();
      return;
    }
    case 'EVENT_HUB': {
      const event = textField(action.metadata, 'event');
      if (event) window.dispatchEvent(new CustomEvent(`${EVENT_HUB_PREFIX}${event}`, { detail: action.metadata?.args }));
      return;
    }
  }
}
