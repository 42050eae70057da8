import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NORTHGATE_ID, RIVERSIDE_ID, buildLoginResult, buildPayload } from '../../../testing/factories';
import { errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { writeLoginResult } from '../../../lib/session-store';
import type { Organisation } from '../../../lib/current-user';
import { OrgSelectionForm } from './org-selection-form';

const ORGANISATIONS: Organisation[] = [
  { id: RIVERSIDE_ID, name: 'Riverside EMS Academy', role: 'USER', isInactive: false },
  { id: NORTHGATE_ID, name: 'Northgate Nursing School', role: 'STUDENT', isInactive: false },
];

describe('OrgSelectionForm', () => {
  it('signs in with the organisation chosen in the dropdown', async () => {
    writeLoginResult(buildLoginResult());
    const api = stubApi([
      { method: 'POST', path: '/api/users/auth/changeOrg', respond: ok },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'renewed.token.sig', idTokenPayload: buildPayload({ org: NORTHGATE_ID }) }),
      },
      { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
    ]);
    const onSelected = vi.fn();
    const user = userEvent.setup();
    renderWithRouter(<OrgSelectionForm organisations={ORGANISATIONS} initialOrgId={RIVERSIDE_ID} onSelected={onSelected} />);

    expect(screen.getByRole('button', { name: 'Sign in with Riverside EMS Academy' })).toBeEnabled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Organization' }), 'Northgate Nursing School');
    await user.click(screen.getByRole('button', { name: 'Sign in with Northgate Nursing School' }));

    await waitFor(() => expect(onSelected).toHaveBeenCalledTimes(1));
    expect(api.callsTo('POST', '/api/users/auth/changeOrg').map((call) => call.body)).toEqual([{ orgId: NORTHGATE_ID }]);
  });

  it('sends nothing without an organisation to choose', async () => {
    const api = stubApi();
    renderWithRouter(<OrgSelectionForm organisations={[]} initialOrgId={null} onSelected={vi.fn()} />);

    const signIn = screen.getByRole('button', { name: 'Sign in' });
    expect(signIn).toBeDisabled();
    fireEvent.submit(signIn.closest('form') as HTMLFormElement);

    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveAttribute('aria-invalid', 'true'));
    expect(api.callsTo('POST', '/api/users/auth/changeOrg')).toHaveLength(0);
  });

  it("shows the server's reason when the selection fails", async () => {
    stubApi([
      {
        method: 'POST',
        path: '/api/users/auth/changeOrg',
        respond: () => errorResponse(403, 'FORBIDDEN', 'You are not a member of this organization.'),
      },
    ]);
    const user = userEvent.setup();
    renderWithRouter(<OrgSelectionForm organisations={ORGANISATIONS} initialOrgId={null} onSelected={vi.fn()} />);

    await user.click(screen.getByRole('button', { name: 'Sign in with Riverside EMS Academy' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not a member of this organization.');
  });
});
