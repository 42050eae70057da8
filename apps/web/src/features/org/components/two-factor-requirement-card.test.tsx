import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { TwoFactorRequirementCard } from './two-factor-requirement-card';

const PATH = '/api/users/extension/groups/org-1/two-factor-requirement';

function renderCard(initial: string[], { failSave = false } = {}) {
  let roles = initial;
  const api = stubApi([
    { method: 'GET', path: PATH, respond: () => jsonResponse({ roles }) },
    {
      method: 'PUT',
      path: PATH,
      respond: (request) => {
        if (failSave) return errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.');
        roles = (request.body as { roles: string[] }).roles;
        return jsonResponse({ roles });
      },
    },
  ]);
  renderWithRouter(<TwoFactorRequirementCard orgId="org-1" />);
  return api;
}

describe('TwoFactorRequirementCard', () => {
  it('asks before requiring a role, naming who will have to set one up, then saves', async () => {
    const api = renderCard([]);
    const section = await screen.findByRole('region', { name: 'Second factor' });
    const admin = await within(section).findByRole('checkbox', { name: 'Admin' });
    expect(within(section).getByRole('checkbox', { name: 'Instructor' })).not.toBeChecked();
    expect(within(section).getByRole('checkbox', { name: 'Student' })).not.toBeChecked();
    const save = within(section).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    const user = userEvent.setup();
    await user.click(admin);
    await user.click(within(section).getByRole('checkbox', { name: 'Student' }));
    await user.click(save);
    const dialog = screen.getByRole('dialog', { name: 'Require a second factor' });
    expect(dialog).toHaveTextContent(
      'Admins and Students of this organization without a second factor will have to set one up at their next sign-in.',
    );
    expect(api.callsTo('PUT', PATH)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Require' }));
    expect(await screen.findByText('Second factor requirement saved.')).toBeInTheDocument();
    expect(api.callsTo('PUT', PATH)[0]?.body).toEqual({ roles: ['ADMIN', 'STUDENT'] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Admin' })).toBeChecked();
  });

  it('turns a role off without asking', async () => {
    const api = renderCard(['USER']);
    const instructor = await screen.findByRole('checkbox', { name: 'Instructor' });
    expect(instructor).toBeChecked();
    const user = userEvent.setup();
    await user.click(instructor);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Second factor requirement saved.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('PUT', PATH)[0]?.body).toEqual({ roles: [] });
  });

  it('shows a refused save inline, in the confirmation', async () => {
    renderCard([], { failSave: true });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Instructor' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = screen.getByRole('dialog', { name: 'Require a second factor' });
    await user.click(within(dialog).getByRole('button', { name: 'Require' }));
    expect(await within(dialog).findByText('You are not allowed to do this.')).toBeInTheDocument();
  });
});
