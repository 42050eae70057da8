import type { Notification } from '@patientsim/domain/notifications/notification.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, buildNotification } from '../../../testing/factories';
import { errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { NO_NOTIFICATIONS_MESSAGE, NotificationsPanel } from './notifications-panel';

function renderPanel(list: () => Notification[], extra: Parameters<typeof stubApi>[0] = []) {
  writeLoginResult(buildLoginResult());
  const api = stubApi(
    [
      { method: 'GET', path: '/api/users/notifications', respond: () => jsonResponse({ data: { notifications: list() } }) },
      ...extra,
    ],
    { withShell: false },
  );
  renderWithRouter(<NotificationsPanel />);
  return { api, user: userEvent.setup() };
}

describe('NotificationsPanel', () => {
  it("says 'No notifications' when there are none", async () => {
    renderPanel(() => []);
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(await screen.findByText(NO_NOTIFICATIONS_MESSAGE)).toBeInTheDocument();
  });

  it('lists newest first, showing which are read', async () => {
    renderPanel(() => [
      buildNotification({ _id: 'old', title: 'Older', date: '2026-02-01T10:00:00.000Z', read: true }),
      buildNotification({ _id: 'new', title: 'Newer', date: '2026-03-01T10:00:00.000Z' }),
    ]);
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByRole('paragraph')[0]?.textContent)).toEqual(['Newer', 'Older']);
    expect(items[0]).toHaveTextContent('2026-03-01 · Unread');
    expect(items[1]).toHaveTextContent('2026-02-01 · Read');
  });

  it('marks read and unread, then shows the new state', async () => {
    let read = false;
    const { api, user } = renderPanel(
      () => [buildNotification({ read })],
      [
        {
          method: 'POST',
          path: '/api/users/notifications/n1/read',
          respond: () => {
            read = true;
            return ok();
          },
        },
        {
          method: 'POST',
          path: '/api/users/notifications/n1/unread',
          respond: () => {
            read = false;
            return ok();
          },
        },
      ],
    );
    await user.click(await screen.findByRole('button', { name: 'Mark as read: New EMS templates' }));
    await user.click(await screen.findByRole('button', { name: 'Mark as unread: New EMS templates' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark as read: New EMS templates' })).toBeInTheDocument());
    expect(api.callsTo('POST', '/api/users/notifications/n1/read')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/users/notifications/n1/unread')).toHaveLength(1);
  });

  it('shows a failed load in place', async () => {
    writeLoginResult(buildLoginResult());
    stubApi(
      [
        {
          method: 'GET',
          path: '/api/users/notifications',
          respond: () => errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.'),
        },
      ],
      { withShell: false },
    );
    renderWithRouter(<NotificationsPanel />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do this.');
  });
});
