import type { UserDetails } from '@patientsim/domain/users/users.schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { NORTHGATE_ID, RIVERSIDE_ID, buildGroup, buildLoginResult } from '../../../testing/factories';
import { ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { MoveUserDialog } from './move-user-dialog';

const MOVE_URL = '/api/users/users/user-7/move';
const NORTHGATE = buildGroup({ _id: NORTHGATE_ID, name: 'Northgate Nursing School' });

const DETAILS: UserDetails = {
  user: {
    user_id: 'user-7',
    email: 'mova@demo.test',
    given_name: 'Mova',
    family_name: 'Mover',
    role: 'STUDENT',
    productType: 'EMS',
    email_verified: true,
    activeOrg: RIVERSIDE_ID,
    deleted: false,
    created_at: '2026-01-05T10:00:00.000Z',
  },
  memberships: [
    { group: buildGroup(), role: 'STUDENT', subscribed: false, key_owner: false, removed_at: null },
    {
      group: buildGroup({ _id: 'org-harbour-0003', name: 'Harbour Medics' }),
      role: 'ADMIN',
      subscribed: false,
      key_owner: true,
      removed_at: null,
    },
  ],
};

function renderDialog() {
  writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
  const api = stubApi([
    {
      method: 'GET',
      path: '/api/users/organizations',
      respond: () => jsonResponse({ total: 1, page: 0, pageSize: 20, items: [NORTHGATE] }),
    },
    { method: 'POST', path: MOVE_URL, respond: ok },
  ]);
  const onMoved = vi.fn();
  renderWithRouter(<MoveUserDialog details={DETAILS} onClose={vi.fn()} onMoved={onMoved} />);
  const dialog = screen.getByRole('dialog', { name: 'Change organization' });
  return { api, dialog, onMoved, user: userEvent.setup() };
}

describe('MoveUserDialog', { timeout: 30_000 }, () => {
  it('moves the person out of the chosen organisation into the new one with the role chosen, after the confirmation', async () => {
    const { api, dialog, onMoved, user } = renderDialog();
    // The organisation they are key owner of cannot be left.
    expect(within(dialog).getByRole('option', { name: /Harbour Medics/ })).toBeDisabled();
    await user.type(within(dialog).getByRole('combobox', { name: 'To organization' }), 'Northgate');
    await user.click(await screen.findByRole('option', { name: 'Northgate Nursing School' }, { timeout: 2000 }));
    expect(within(dialog).getByLabelText('Role there')).toHaveValue('STUDENT');
    await user.selectOptions(within(dialog).getByLabelText('Role there'), 'Instructor');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));

    expect(
      await within(dialog).findByText(
        'Move Mova Mover from Riverside EMS Academy to Northgate Nursing School as Instructor? They are archived in Riverside EMS Academy, leave its groups and are signed out.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', MOVE_URL)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onMoved).toHaveBeenCalledWith('Mova Mover is now a member of Northgate Nursing School.'));
    expect(api.callsTo('POST', MOVE_URL).map((call) => call.body)).toEqual([
      { orgId: NORTHGATE_ID, role: 'USER', fromOrgId: RIVERSIDE_ID },
    ]);
  });

  it('adds the person without leaving any organisation when none is chosen to leave', async () => {
    const { api, dialog, onMoved, user } = renderDialog();
    await user.selectOptions(within(dialog).getByLabelText('From organization'), 'None (keep every current organization)');
    await user.type(within(dialog).getByRole('combobox', { name: 'To organization' }), 'Northgate');
    await user.click(await screen.findByRole('option', { name: 'Northgate Nursing School' }, { timeout: 2000 }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(
      await within(dialog).findByText('Add Mova Mover to Northgate Nursing School as Student? They are signed out.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onMoved).toHaveBeenCalled());
    expect(api.callsTo('POST', MOVE_URL)[0]?.body).toEqual({ orgId: NORTHGATE_ID, role: 'STUDENT' });
  });

  it('goes no further and sends nothing before an organisation to join is chosen', async () => {
    const { api, dialog, user } = renderDialog();
    const next = within(dialog).getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    fireEvent.submit(next.closest('form') as HTMLFormElement);

    // The refused submit did not reach the confirmation: choosing an organisation afterwards still asks for Next.
    await user.type(within(dialog).getByRole('combobox', { name: 'To organization' }), 'Northgate');
    await user.click(await screen.findByRole('option', { name: 'Northgate Nursing School' }, { timeout: 2000 }));
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: 'Move' })).not.toBeInTheDocument();
    expect(api.callsTo('POST', MOVE_URL)).toHaveLength(0);
  });
});
