import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assignLocation } from '../../../lib/browser';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { NO_PAYMENT_CUSTOMER_EXPLANATION, PaymentPortalRoute, REDIRECTING_TO_BILLING_MESSAGE } from './payment-portal';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  assignLocation: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

const PATH = '/api/users/payment/create-billing-portal-session';

function renderPage(routes: FakeRoute[], { stripeCustomerId = 'cus_demo_owner' }: { stripeCustomerId?: string | null } = {}) {
  const result = buildLoginResult();
  result.idTokenPayload.app_metadata.stripeCustomerId = stripeCustomerId;
  writeLoginResult(result);
  const api = stubApi(routes, { withShell: false });
  renderWithRouter(<PaymentPortalRoute />);
  return { api };
}

describe('/payment/portal', () => {
  it("says 'Redirecting to billing portal...', then sends the browser to the portal", async () => {
    const { api } = renderPage([
      {
        method: 'POST',
        path: PATH,
        respond: () => jsonResponse({ ok: true, data: { sessionUrl: 'https://billing.example.test/s/1' } }),
      },
    ]);
    expect(screen.getByRole('status')).toHaveTextContent(REDIRECTING_TO_BILLING_MESSAGE);
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('https://billing.example.test/s/1'));
    expect(api.callsTo('POST', PATH)[0]?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
  });

  it('asks nothing of the server without a payment customer', () => {
    const { api } = renderPage([], { stripeCustomerId: null });
    expect(screen.getByText(NO_PAYMENT_CUSTOMER_EXPLANATION)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to account' })).toHaveAttribute('href', '/auth/account/profile');
    expect(api.requests).toHaveLength(0);
  });

  it.each([
    [422, 'NO_PAYMENT_CUSTOMER', 'No payment customer exists for this account.'],
    [503, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The billing portal is not available.'],
  ])('shows the message of a %s %s, with Back to account', async (status, code, message) => {
    renderPage([{ method: 'POST', path: PATH, respond: () => errorResponse(status, code, message) }]);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Back to account' })).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("shows 'Unkown error when redirecting to payment portal' when the reply says nothing", async () => {
    renderPage([{ method: 'POST', path: PATH, respond: () => new Response('', { status: 502 }) }]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Unkown error when redirecting to payment portal');
  });

  it('never opens a portal address that is not a web page', async () => {
    renderPage([
      { method: 'POST', path: PATH, respond: () => jsonResponse({ ok: true, data: { sessionUrl: 'javascript:alert(1)' } }) },
    ]);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
  });
});
