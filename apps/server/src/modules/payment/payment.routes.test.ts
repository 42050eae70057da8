import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { startFakeStripe } from '../../../test/fake-stripe.js';
import { type InsertUserOptions, insertGroup, signInNewMember } from '../../../test/fixtures.js';

/** An organisation admin, signed in; a payment customer and a subscription state can be given. */
async function signInAdmin(t: TestApp, options: InsertUserOptions = {}) {
  return signInNewMember(t, await insertGroup(t.db, { seats: 10 }), { role: 'ADMIN', ...options });
}

describe('billing portal', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await buildTestApp({ env: { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_API_BASE: stripe.url } });
  });
  afterAll(() => stripe.close());

  it("opens a portal session for the user's payment customer", async () => {
    const { client } = await signInAdmin(t, { stripeCustomerId: 'cus_test_owner', subscriptionStatus: 'active' });
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ok: true,
      data: { sessionUrl: 'https://billing.example.test/p/session/cus_test_owner' },
    });
    const sent = stripe.requests.at(-1);
    expect(sent?.authorization).toBe('Bearer sk_test_local');
    expect(sent?.body.get('customer')).toBe('cus_test_owner');
    expect(sent?.body.get('return_url')).toBe(`${TEST_PUBLIC_URL}/auth/account/profile`);
  });

  it('refuses a user without a payment customer, without calling the provider', async () => {
    const before = stripe.requests.length;
    const { client } = await signInNewMember(t, await insertGroup(t.db), { role: 'STUDENT' });
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('NO_PAYMENT_CUSTOMER');
    expect(stripe.requests.length).toBe(before);
  });

  it('answers a clear error when the provider refuses', async () => {
    // The fake provider knows no customer starting with cus_missing.
    const { client } = await signInAdmin(t, { stripeCustomerId: 'cus_missing_1' });
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      message: 'The billing portal is not available.',
    });
  });

  it('marks a past-due subscription as a payment issue in the token', async () => {
    expect((await signInAdmin(t)).payload.app_metadata.paymentIssue).toBe(false);
    expect(
      (await signInAdmin(t, { stripeCustomerId: 'cus_test_active', subscriptionStatus: 'active' })).payload.app_metadata
        .paymentIssue,
    ).toBe(false);
    const pastDue = await signInAdmin(t, { stripeCustomerId: 'cus_test_past_due', subscriptionStatus: 'past_due' });
    expect(pastDue.payload.app_metadata.paymentIssue).toBe(true);
  });
});

describe('billing portal without a provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  it('answers that the portal is not available', async () => {
    const { client } = await signInAdmin(t, { stripeCustomerId: 'cus_test_owner', subscriptionStatus: 'active' });
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
  });
});
