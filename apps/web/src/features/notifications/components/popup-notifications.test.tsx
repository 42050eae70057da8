import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import type { Notification } from '@patientsim/domain/notifications/notification.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assignLocation } from '../../../lib/browser';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, buildNotification } from '../../../testing/factories';
import { type FakeRoute, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import type { InvitationActions } from './notification-actions';
import { CONFIRM_LABELS, REMIND_ME_LABEL, confirmLabel } from './popup-slide';
import { PopupNotifications } from './popup-notifications';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  assignLocation: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

const SLIDES: Notification[] = [
  buildNotification({
    _id: 'p1',
    type: 'POPUP_MESSAGE',
    title: 'Welcome to PatientSim',
    color: '#018786',
    date: '2026-03-01T09:00:00.000Z',
  }),
  buildNotification({
    _id: 'p2',
    type: 'POPUP_MESSAGE',
    title: 'New: Pediatric cases',
    color: '#ffb300',
    date: '2026-03-01T08:00:00.000Z',
    media: { type: 'IMAGE', url: '/media/announcement' },
  }),
  buildNotification({
    _id: 'p3',
    type: 'POPUP_MESSAGE',
    title: 'Skills check on Friday',
    date: '2026-03-01T07:00:00.000Z',
    actions: [{ label: 'Go to', type: 'CASE_LINK', metadata: { caseId: 'case-42' } }],
  }),
];

const markRoutes: FakeRoute[] = [{ method: 'POST', path: /^\/api\/users\/notifications\/[^/]+\/(read|unread)$/, respond: ok }];

function renderCarousel(pending: Notification[], invitationActions: InvitationActions = { accept: vi.fn(), dismiss: vi.fn() }) {
  writeLoginResult(buildLoginResult({ role: 'STUDENT' }));
  const api = stubApi(
    [
      {
        method: 'GET',
        path: '/api/users/notifications/pending',
        respond: () => jsonResponse({ data: { notifications: pending } }),
      },
      ...markRoutes,
    ],
    { withShell: false },
  );
  const view = renderRoutes(
    [
      { path: '/account/profile', element: <PopupNotifications invitationActions={invitationActions} /> },
      { path: '/account/change-password', element: <p>Change password page</p> },
      { path: '/authoring/cases', element: <p>Scenario library page</p> },
    ],
    '/auth/account/profile',
  );
  return { ...view, api, user: userEvent.setup() };
}

const marked = (api: ReturnType<typeof stubApi>, state: 'read' | 'unread') =>
  api.requests.filter((request) => request.path.endsWith(`/${state}`)).map((request) => request.path.split('/')[4]);

describe('confirmLabel', () => {
  it("is 'Show me more' first, 'Next' in the middle, 'Go to my cases' last", () => {
    expect([0, 1, 2].map((index) => confirmLabel(index, 3))).toEqual(['Show me more', 'Next', 'Go to my cases']);
    expect(confirmLabel(0, 1)).toBe('Go to my cases');
  });
});

describe('PopupNotifications', () => {
  it('shows the unread popups once as slides, each marked read when shown, and ends at the cases', async () => {
    const { api, user, router } = renderCarousel([
      ...SLIDES,
      buildNotification({ _id: 'info', type: 'INFO', title: 'Not a popup' }),
    ]);

    const dialog = await screen.findByRole('dialog', { name: 'Welcome to PatientSim' });
    expect(within(dialog).getByRole('heading', { name: 'Welcome to PatientSim' })).toHaveStyle({ color: '#018786' });
    await waitFor(() => expect(marked(api, 'read')).toEqual(['p1']));
    await user.click(within(dialog).getByRole('button', { name: CONFIRM_LABELS.first }));

    expect(await screen.findByRole('dialog', { name: 'New: Pediatric cases' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'New: Pediatric cases' })).toHaveAttribute('src', '/media/announcement');
    await user.click(screen.getByRole('button', { name: CONFIRM_LABELS.middle }));

    expect(await screen.findByRole('dialog', { name: 'Skills check on Friday' })).toBeInTheDocument();
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    await waitFor(() => expect(marked(api, 'read')).toEqual(['p1', 'p2', 'p3']));
    await user.click(screen.getByRole('button', { name: CONFIRM_LABELS.last }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The scenario library is a page of this app: the router goes there, the page does not load again.
    expect(await screen.findByText('Scenario library page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/authoring/cases');
    expect(assignLocation).not.toHaveBeenCalled();
    expect(screen.queryByText('Not a popup')).not.toBeInTheDocument();
  });

  it("'Remind Me at Next Login' closes, keeps popups off and marks the slides shown unread again", async () => {
    const { api, user } = renderCarousel(SLIDES);
    await user.click(await screen.findByRole('button', { name: CONFIRM_LABELS.first }));
    await screen.findByRole('dialog', { name: 'New: Pediatric cases' });
    await user.click(screen.getByRole('button', { name: REMIND_ME_LABEL }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.localStorage.getItem(STORAGE_KEYS.disablePopupNotifications)).toBe('true');
    await waitFor(() => expect(marked(api, 'unread').sort()).toEqual(['p1', 'p2']));
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('asks for nothing while popups are off', () => {
    window.localStorage.setItem(STORAGE_KEYS.disablePopupNotifications, 'true');
    const { api } = renderCarousel(SLIDES);
    expect(api.requests).toHaveLength(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays closed once closed while the app runs, even when the shell mounts again', async () => {
    const { user, router, api } = renderCarousel(SLIDES);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The carousel unmounts on the other page and mounts again back on this one.
    await router.navigate('/auth/account/change-password');
    expect(await screen.findByText('Change password page')).toBeInTheDocument();
    await router.navigate('/auth/account/profile');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/api/users/notifications/pending')).toHaveLength(1);
  });

  it('runs a slide action: a case link opens the case in the scenario library', async () => {
    const { user, router } = renderCarousel([SLIDES[2] as Notification]);
    await user.click(await screen.findByRole('button', { name: 'Go to' }));
    expect(await screen.findByText('Scenario library page')).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/authoring/cases?caseId=case-42');
    expect(assignLocation).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('answers an invitation from a slide', async () => {
    const actions = { accept: vi.fn(async () => undefined), dismiss: vi.fn(async () => undefined) };
    const { user } = renderCarousel(
      [
        buildNotification({
          _id: 'inv',
          type: 'POPUP_MESSAGE',
          title: 'You are invited',
          actions: [
            { label: 'Join', type: 'ACCEPT_INVITE', metadata: { inviteId: 'invite-1' } },
            { label: 'No thanks', type: 'DISMISS_INVITE', metadata: { inviteId: 'invite-1' } },
          ],
        }),
      ],
      actions,
    );
    await user.click(await screen.findByRole('button', { name: 'Join' }));
    expect(actions.accept).toHaveBeenCalledWith('invite-1');
    await user.click(screen.getByRole('button', { name: 'No thanks' }));
    expect(actions.dismiss).toHaveBeenCalledWith('invite-1');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows why an action failed', async () => {
    const actions = {
      accept: vi.fn(async () => Promise.reject(new Error('The invitation is invalid or has expired.'))),
      dismiss: vi.fn(),
    };
    const { user } = renderCarousel(
      [
        buildNotification({
          _id: 'inv',
          type: 'POPUP_MESSAGE',
          title: 'You are invited',
          actions: [{ label: 'Join', type: 'ACCEPT_INVITE', metadata: { inviteId: 'invite-1' } }],
        }),
      ],
      actions,
    );
    await user.click(await screen.findByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The invitation is invalid or has expired.');
  });
});
