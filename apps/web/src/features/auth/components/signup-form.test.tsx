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

  it('offers EMS and Nursing', () => {
    renderWithRouter(<SignupForm />);
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['EMS', 'Nursing']);
  });
});
