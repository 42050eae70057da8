import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, RIVERSIDE_ID } from '../../../testing/factories';
import { errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { renderWithRouter } from '../../../testing/render';
import { usePendingInviteActions } from './pending-invite-actions';

const EMAIL = 'pending@example.test';
const INVITES_PATH = `/api/users/invites/org/${RIVERSIDE_ID}`;

/** A pending-invitation row's action menu, as the users table builds it. */
function Row() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const actions = usePendingInviteActions(RIVERSIDE_ID);
  return (
    <>
      {actions.failure}
      <Button aria-label={`Actions for ${EMAIL}`} onClick={(event) => setAnchor(event.currentTarget)}>
        Actions
      </Button>
      <Menu open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)}>
        {actions.menuItems(EMAIL, () => setAnchor(null))}
      </Menu>
      {actions.dialogs}
    </>
  );
}

function renderRow(resend = () => ok(), revoke = () => ok()) {
  writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
  const api = stubApi(
    [
      { method: 'POST', path: `${INVITES_PATH}/resend`, respond: resend },
      { method: 'DELETE', path: INVITES_PATH, respond: revoke },
    ],
    { withShell: false },
  );
  renderWithRouter(<Row />);
  return { api, user: userEvent.setup() };
}

describe('usePendingInviteActions', () => {
  it('resends the invitation to the row’s address and says so', async () => {
    const { api, user } = renderRow();
    await user.click(screen.getByRole('button', { name: `Actions for ${EMAIL}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Resend' }));
    expect(await screen.findByText(`The invitation to ${EMAIL} was sent again.`)).toBeInTheDocument();
    expect(api.callsTo('POST', `${INVITES_PATH}/resend`)[0]?.url.searchParams.get('email')).toBe(EMAIL);
  });

  it('shows the server’s message inline when a resend is refused', async () => {
    const { user } = renderRow(() => errorResponse(429, 'RATE_LIMITED', 'Too many attempts. Please try again later.'));
    await user.click(screen.getByRole('button', { name: `Actions for ${EMAIL}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Resend' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
  });

  it('keeps a refused revoke in its confirmation, with the server’s message', async () => {
    const { user } = renderRow(undefined, () => errorResponse(404, 'NOT_FOUND', 'No pending invitation for this email.'));
    await user.click(screen.getByRole('button', { name: `Actions for ${EMAIL}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Revoke' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke invitation' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('No pending invitation for this email.');
    expect(screen.queryByText(`The invitation to ${EMAIL} was revoked.`)).not.toBeInTheDocument();
  });

  it('revokes only after confirming', async () => {
    const { api, user } = renderRow();
    await user.click(screen.getByRole('button', { name: `Actions for ${EMAIL}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Revoke' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke invitation' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', INVITES_PATH)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: `Actions for ${EMAIL}` }));
    await user.click(screen.getByRole('menuitem', { name: 'Revoke' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke invitation' })).getByRole('button', { name: 'Revoke' }),
    );
    expect(await screen.findByText(`The invitation to ${EMAIL} was revoked.`)).toBeInTheDocument();
    expect(api.callsTo('DELETE', INVITES_PATH)[0]?.url.searchParams.get('email')).toBe(EMAIL);
  });
});
