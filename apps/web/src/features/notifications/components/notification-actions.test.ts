import type { NotificationAction } from '@patientsim/domain/notifications/notification.schemas';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assignLocation, openInNewTab } from '../../../lib/browser';
import { type NotificationActionContext, runNotificationAction } from './notification-actions';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  assignLocation: vi.fn(),
  openInNewTab: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
  vi.mocked(openInNewTab).mockClear();
});

function context(): NotificationActionContext {
  return {
    navigate: vi.fn(),
    origin: 'http://localhost:3000',
    invitationActions: { accept: vi.fn(async () => undefined), dismiss: vi.fn(async () => undefined) },
    finishSlide: vi.fn(),
    close: vi.fn(),
  };
}

const action = (type: NotificationAction['type'], metadata?: Record<string, unknown>): NotificationAction => ({
  label: 'Go to',
  type,
  ...(metadata ? { metadata } : {}),
});

describe('runNotificationAction', () => {
  it('URL: a route of this app through the router, another same-origin page in this tab, another site in a new tab', async () => {
    const ctx = context();
    await runNotificationAction(action('URL', { url: '/auth/account/change-password?x=1' }), ctx);
    expect(ctx.navigate).toHaveBeenCalledWith('/auth/account/change-password?x=1');
    expect(ctx.close).toHaveBeenCalled();

    // The scenario library is a page of this app (decision 1); other authoring pages are not.
    await runNotificationAction(action('URL', { url: '/authoring/cases' }), ctx);
    expect(ctx.navigate).toHaveBeenCalledWith('/authoring/cases');
    await runNotificationAction(action('URL', { url: '/authoring/assignments' }), ctx);
    expect(assignLocation).toHaveBeenCalledWith('/authoring/assignments');

    await runNotificationAction(action('URL', { url: 'https://example.org/news' }), ctx);
    expect(openInNewTab).toHaveBeenCalledWith('https://example.org/news');

    await runNotificationAction(action('URL', { url: 'javascript:alert(1)' }), ctx);
    expect(assignLocation).toHaveBeenCalledTimes(1);
    expect(openInNewTab).toHaveBeenCalledTimes(1);
  });

  it('DISMISS finishes the slide', async () => {
    const ctx = context();
    await runNotificationAction(action('DISMISS'), ctx);
    expect(ctx.finishSlide).toHaveBeenCalledTimes(1);
  });

  it('CASE_LINK opens the case in the scenario library, a page of this app', async () => {
    const ctx = context();
    await runNotificationAction(action('CASE_LINK', { caseId: 'case 7' }), ctx);
    expect(ctx.close).toHaveBeenCalledTimes(1);
    expect(ctx.navigate).toHaveBeenCalledWith('/authoring/cases?caseId=case+7');
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('ACCEPT_INVITE and DISMISS_INVITE answer the invitation of metadata.inviteId', async () => {
    const ctx = context();
    await runNotificationAction(action('ACCEPT_INVITE', { inviteId: 'i1' }), ctx);
    expect(ctx.invitationActions.accept).toHaveBeenCalledWith('i1');
    await runNotificationAction(action('DISMISS_INVITE', { inviteId: 'i1' }), ctx);
    expect(ctx.invitationActions.dismiss).toHaveBeenCalledWith('i1');
    expect(ctx.finishSlide).toHaveBeenCalledTimes(1);
  });

  it('EVENT_HUB raises patientsim:<event> on window with the args', async () => {
    const listener = vi.fn();
    window.addEventListener('patientsim:open-tutorial', listener);
    await runNotificationAction(action('EVENT_HUB', { event: 'open-tutorial', args: { id: 't1' } }), context());
    window.removeEventListener('patientsim:open-tutorial', listener);
    expect(listener).toHaveBeenCalledTimes(1);
    expect((listener.mock.calls[0]?.[0] as CustomEvent).detail).toEqual({ id: 't1' });
  });

  it('does nothing without the metadata it needs', async () => {
    const ctx = context();
    await runNotificationAction(action('CASE_LINK'), ctx);
    await runNotificationAction(action('ACCEPT_INVITE', { inviteId: 3 }), ctx);
    await runNotificationAction(action('URL', {}), ctx);
    expect(assignLocation).not.toHaveBeenCalled();
    expect(ctx.invitationActions.accept).not.toHaveBeenCalled();
    expect(ctx.close).not.toHaveBeenCalled();
  });
});
