import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithRouter, requestBodyOf, requestUrlOf } from '../../../testing/render';
import { INVITATION_SENT_MESSAGE, SignupForm } from './signup-form';

describe('SignupForm', () => {
  it('sends the lowercased e-mail and the account type, then says an invitation was sent', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithRouter(<SignupForm />);

    await user.type(screen.getByLabelText(/^Email/), ' New.Person@Demo.Test ');
    await user.selectOptions(screen.getByLabelText(/^Account type/), 'Nursing');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByText(INVITATION_SENT_MESSAGE)).toBeInTheDocument();
    expect(requestUrlOf(fetchMock)).toBe('/api/users/invitations/invite-unaffiliated');
    expect(requestBodyOf(fetchMock)).toEqual({ email: 'new.person@demo.test', accountType: 'NURSING' });
  });

  it('says to follow the invitation when the address has a pending one (no sign-up e-mail)', async () => {
    const message =
      'You have a pending invitation to invitee@demo.test. Please follow the link in your invite email to accept it.';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 409, code: 'PENDING_INVITATION', message }, 409)),
    );
    const user = userEvent.setup();
    renderWithRouter(<SignupForm />);
    await user.type(screen.getByLabelText(/^Email/), 'invitee@demo.test');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(INVITATION_SENT_MESSAGE)).not.toBeInTheDocument();
  });

  it('offers EMS and Nursing', () => {
    renderWithRouter(<SignupForm />);
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['EMS', 'Nursing']);
  });
});
