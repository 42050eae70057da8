import type { Role } from '@patientsim/domain/roles/roles';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { writeGroups, writeLoginResult } from '../../lib/session-store';
import { buildGroup, buildGroupsDataEntry, buildLoginResult } from '../../testing/factories';
import { type FakeRoute, stubApi } from '../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../testing/render';
import { routes } from '../router';

const INVITE = {
  _id: 'invite-1',
  org_id: 'org-northgate',
  org_name: 'Northgate Nursing School',
  email: 'admin@demo.test',
  role: 'USER',
  dismissed: false,
  declined: false,
  user_id: 'user-1',
  throughSubscription: false,
};

function signIn(role: Role, { dev = false, stripeCustomerId = null as string | null } = {}) {
  const result = buildLoginResult({ role, groupsData: [buildGroupsDataEntry({ role })] });
  result.idTokenPayload.app_metadata.stripeCustomerId = stripeCustomerId;
  writeLoginResult(result);
  writeGroups([buildGroup({}, { dev })], []);
  window.localStorage.setItem('disablePopupNotifications', 'true');
}

const invitesRoute = (invites: unknown[]): FakeRoute => ({
  method: 'GET',
  path: '/api/users/invites/user/user-1',
  respond: () => jsonResponse({ data: { invites } }),
});

describe('profile page', () => {
  it('offers the scenario summaries to a super admin in a dev organisation only', async () => {
    signIn('SUPER_ADMIN', { dev: true });
    stubApi();
    renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByRole('button', { name: 'Summaries' })).toBeInTheDocument();
  });

  it('shows no summaries, no billing and no pending invitation to a student without them', async () => {
    signIn('STUDENT', { dev: true });
    stubApi();
    renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByText('You have no pending invitations.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Summaries' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Billing' })).not.toBeInTheDocument();
    const account = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^ACCOUNT/ });
    expect(account).not.toHaveTextContent('!');
  });

  it('links a user with a payment customer to billing', async () => {
    signIn('ADMIN', { stripeCustomerId: 'cus_1' });
    stubApi();
    renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/auth/payment/portal');
  });

  it("lists a pending invitation with the notice, and puts the '!' badge on ACCOUNT", async () => {
    signIn('USER');
    stubApi([invitesRoute([INVITE])]);
    renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByText('Northgate Nursing School')).toBeInTheDocument();
    expect(
      screen.getByText(
        'You have a pending invitation to admin@demo.test. Please follow the link in your invite email to accept it.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
    const account = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^ACCOUNT/ });
    expect(account).toHaveTextContent('!');
    expect(account).toHaveAccessibleName(/pending invitation/);
  });
});
