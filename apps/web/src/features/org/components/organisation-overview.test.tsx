import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deriveCurrentUser } from '../../../lib/current-user';
import { writeLoginResult } from '../../../lib/session-store';
import { buildGroup, buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { OrganisationOverview } from './organisation-overview';

const OTHER_ORG_ID = 'org-elsewhere-0003';
const ORG_URL = `/api/users/extension/groups/${OTHER_ORG_ID}`;

/** The provider looking at an organisation they are not a member of, as the access area does. */
function renderForProvider() {
  const result = buildLoginResult({ role: 'SUPER_ADMIN', sub: 'super-1' });
  writeLoginResult(result);
  let current = buildGroup({ _id: OTHER_ORG_ID, name: 'Lakeside College' }, { ownerId: 'owner-9', seats: 10, memberCount: 4 });
  const api = stubApi([
    { method: 'GET', path: ORG_URL, respond: () => jsonResponse(current) },
    {
      method: 'PATCH',
      path: ORG_URL,
      respond: (request) => {
        current = buildGroup(
          { _id: OTHER_ORG_ID, name: 'Lakeside College' },
          { ownerId: 'owner-9', seats: 10, memberCount: 4, ...(request.body as object) },
        );
        return jsonResponse(current);
      },
    },
    // Admins and the provider see (and set) the second factor requirement below the cards.
    { method: 'GET', path: `${ORG_URL}/two-factor-requirement`, respond: () => jsonResponse({ roles: [] }) },
    {
      method: 'GET',
      path: `${ORG_URL}/key-owner`,
      respond: () => jsonResponse({ user_id: 'owner-9', email: 'lake@demo.test', given_name: 'Lee', family_name: 'Lake' }),
    },
  ]);
  renderWithRouter(
    <OrganisationOverview orgId={OTHER_ORG_ID} viewer={deriveCurrentUser(result, [])}>
      <p>Members follow</p>
    </OrganisationOverview>,
  );
  return { api, user: userEvent.setup() };
}

describe('OrganisationOverview', () => {
  it("shows the provider the organisation's product type, flags, status and seats to set (spec section 6), and what follows once read", async () => {
    renderForProvider();
    expect(await screen.findByRole('textbox', { name: /Name/ })).toHaveValue('Lakeside College');
    expect(screen.getByRole('combobox', { name: 'Product type' })).toBeInTheDocument();
    for (const flag of ['Internal org (dev)', 'Testing', 'Debug', 'AI dialogue']) {
      expect(screen.getByRole('checkbox', { name: flag })).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Change Status' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Seats' })).toHaveValue('10');
    expect(screen.getByRole('button', { name: 'Change Group Admin' })).toBeInTheDocument();
    // Another person's key: their name, not "(you)".
    expect(await screen.findByText('Lee Lake')).toBeInTheDocument();
    expect(screen.getByText('Members follow')).toBeInTheDocument();
  });

  it('changes an organisation the provider is not in without renewing their session', async () => {
    const { api, user } = renderForProvider();
    await user.click(await screen.findByRole('checkbox', { name: 'Testing' }));
    await waitFor(() => expect(api.callsTo('PATCH', ORG_URL)[0]?.body).toEqual({ testing: true }));
    expect(await screen.findByRole('checkbox', { name: 'Testing' })).toBeChecked();
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
  });
});
