import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildGroupsDataEntry, buildLoginResult } from '../../../testing/factories';
import { stubApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { ScenarioLibraryRoute } from './scenario-library';

/** A student who joined the active organisation through a subscription, their own one active or not. */
function renderAsSubscriber({
  subscriptionActive,
  stripeCustomerId,
}: {
  subscriptionActive: boolean;
  stripeCustomerId: string | null;
}) {
  const result = buildLoginResult({ role: 'STUDENT', groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })] });
  const { app_metadata: metadata } = result.idTokenPayload;
  metadata.subscribedOrgs = [result.idTokenPayload.org ?? ''];
  metadata.subscriptionActive = subscriptionActive;
  metadata.stripeCustomerId = stripeCustomerId;
  writeLoginResult(result);
  stubApi([]);
  renderRoutes([{ path: '/authoring/cases', element: <ScenarioLibraryRoute /> }], '/authoring/cases');
}

describe('ScenarioLibraryRoute', () => {
  it('tells a subscribed member without an active subscription that it opens the scenarios, and lists none', () => {
    renderAsSubscriber({ subscriptionActive: false, stripeCustomerId: 'cus_1' });
    expect(screen.getByText(/its scenarios open while your own subscription is active/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage your subscription' })).toHaveAttribute('href', '/auth/payment/portal');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('sends one without a payment customer to their account', () => {
    renderAsSubscriber({ subscriptionActive: false, stripeCustomerId: null });
    expect(screen.getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/auth/account/profile');
  });
});
