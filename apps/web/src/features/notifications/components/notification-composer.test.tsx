import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CONFIRM_LABELS, REMIND_ME_LABEL } from './popup-slide';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, buildNotification } from '../../../testing/factories';
import { type FakeRoute, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { NotificationComposer, headerContrastNote } from './notification-composer';

function renderComposer(routes: FakeRoute[] = []) {
  writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
  const api = stubApi(routes);
  renderWithRouter(<NotificationComposer />);
  return Object.assign(within(screen.getByRole('region', { name: 'Preview' })), { api });
}

const SEND: FakeRoute = {
  method: 'POST',
  path: '/api/users/notifications',
  respond: () => jsonResponse({ data: { notification: buildNotification() } }),
};

/** Header, body, a link as the action and all students as the target. */
async function fillDraft(link: string) {
  const user = userEvent.setup();
  fireEvent.change(screen.getByRole('textbox', { name: /^Header/ }), { target: { value: 'Skills night' } });
  fireEvent.change(screen.getByRole('textbox', { name: /^Body/ }), { target: { value: 'Meet at the ambulance bay.' } });
  await user.click(screen.getByRole('radio', { name: 'Go To Link' }));
  fireEvent.change(screen.getByRole('textbox', { name: 'Link' }), { target: { value: link } });
  await user.click(screen.getByRole('checkbox', { name: 'All students' }));
  await user.click(screen.getByRole('button', { name: 'Add' }));
  return user;
}

describe('the announcement composer preview', () => {
  it('shows the popup as its target will see it, as the header and body are typed', async () => {
    const preview = renderComposer();
    expect(preview.getByRole('heading', { name: 'Header' })).toBeInTheDocument();
    expect(preview.getByRole('button', { name: REMIND_ME_LABEL })).toBeInTheDocument();
    expect(preview.getByRole('button', { name: CONFIRM_LABELS.last })).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox', { name: /^Header/ }), { target: { value: 'Skills night' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Body/ }), { target: { value: 'Meet at the ambulance bay.' } });
    expect(preview.getByRole('heading', { name: 'Skills night' })).toBeInTheDocument();
    expect(preview.getByText('Meet at the ambulance bay.')).toBeInTheDocument();
    expect(screen.getByText('12/25')).toBeInTheDocument();
    expect(screen.getByText('26/500')).toBeInTheDocument();

    // A link becomes the popup's 'Go to' button.
    await userEvent.click(screen.getByRole('radio', { name: 'Go To Link' }));
    expect(preview.getByRole('button', { name: 'Go to' })).toBeInTheDocument();
  });

  it('warns when the colour fails 4.5:1 on the black header, and the preview shows the header the popup will use', async () => {
    const preview = renderComposer();
    await userEvent.click(screen.getByRole('radio', { name: 'Indigo' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Indigo reaches only 3.5:1 on the black popup header, below the 4.5:1 text needs. The popup shows this header on white instead (6.0:1).',
    );
    expect(preview.getByRole('heading', { name: 'Header' })).toHaveStyle({
      color: 'rgb(84, 80, 213)',
      backgroundColor: 'rgb(255, 255, 255)',
    });

    await userEvent.click(screen.getByRole('radio', { name: 'Purple' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Purple reaches only 4.3:1 on the black popup header');

    await userEvent.click(screen.getByRole('radio', { name: 'Teal' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Teal on the black popup header: 4.8:1.')).toBeInTheDocument();
    expect(preview.getByRole('heading', { name: 'Header' })).toHaveStyle({ backgroundColor: 'rgb(0, 0, 0)' });
  });

  it('computes the note for every colour of the palette from its contrast', () => {
    expect(headerContrastNote('red')).toEqual({ isWarning: false, text: 'Red on the black popup header: 5.3:1.' });
    expect(headerContrastNote('#5450d5').isWarning).toBe(true);
    expect(headerContrastNote('#b329e3').isWarning).toBe(true);
    expect(headerContrastNote('#ffb300').isWarning).toBe(false);
  });
});

describe('sending an announcement', () => {
  it('sends the header, body, link and targets, then says so and starts an empty form', async () => {
    const { api } = renderComposer([SEND]);
    const user = await fillDraft('/authoring/cases');
    expect(screen.getByText('This notification goes to: All students.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByRole('dialog', { name: 'Notification Sent!' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/notifications').map((call) => call.body)).toEqual([
      {
        type: 'POPUP_MESSAGE',
        title: 'Skills night',
        message: 'Meet at the ambulance bay.',
        color: 'red',
        media: null,
        animation: null,
        actions: [{ label: 'Go to', type: 'URL', metadata: { url: '/authoring/cases' } }],
        targets: [{ principalType: 'GROUP', principalId: 'ALL_STUDENTS' }],
      },
    ]);
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Header/ })).toHaveValue(''));
    expect(screen.getByText('Nobody will receive this notification yet.')).toBeInTheDocument();
  });

  it('refuses a link that is neither a path of this site nor an http(s) address, and sends nothing', async () => {
    const { api } = renderComposer([SEND]);
    const user = await fillDraft('javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('Enter a path of this site or an http(s) address')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveFocus();
    expect(api.callsTo('POST', '/api/users/notifications')).toHaveLength(0);
  });
});
