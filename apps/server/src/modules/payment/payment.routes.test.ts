import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth.js';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../../test/build-app.js';
import { signInDemo } from '../../../test/demo-client.js';
import { startFakeStripe } from '../../../test/fake-stripe.js';

describe('billing portal', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await buildTestApp({ seed: true, env: { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_API_BASE: stripe.url } });
  });
  afterAll(() => stripe.close());

  it("opens a portal session for the user's payment customer", async () => {
    const { client, userId } = await signInDemo(t, 'owner@demo.test');
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(user).where(eq(user.id, userId));
    expect(response.json()).toEqual({
      ok: true,
      data: { sessionUrl: `https://billing.example.test/p/session/${row?.stripeCustomerId}` },
    });
    const sent = stripe.requests.at(-1);
    expect(sent?.authorization).toBe('Bearer sk_test_local');
    expect(sent?.body.get('return_url')).toBe(`${TEST_PUBLIC_URL}/auth/account/profile`);
  });

  it('refuses a user without a payment customer, without calling the provider', async () => {
    const before = stripe.requests.length;
    const { client } = await signInDemo(t, 'student@demo.test');
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('NO_PAYMENT_CUSTOMER');
    expect(stripe.requests.length).toBe(before);
  });

  it('answers a clear error when the provider refuses', async () => {
    const { client, userId } = await signInDemo(t, 'medic@demo.test');
    await t.db.update(user).set({ stripeCustomerId: 'cus_missing_1' }).where(eq(user.id, userId));
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      message: 'The billing portal is not available.',
    });
  });

  it('marks a past-due subscription as a payment issue in the token', async () => {
    expect((await signInDemo(t, 'nurse@demo.test')).payload.app_metadata.paymentIssue).toBe(false);
    const medic = await t.db.select().from(user).where(eq(user.email, 'medic@demo.test'));
    expect(medic[0]?.subscriptionStatus).toBe('past_due');
    const fresh = await signInDemo(t, 'medic@demo.test');
    expect(fresh.payload.app_metadata.paymentIssue).toBe(true);
  });
});

describe('billing portal without a provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ seed: true });
  });
  it('answers that the portal is not available', async () => {
    const { client } = await signInDemo(t, 'owner@demo.test');
    const response = await client.post('/api/users/payment/create-billing-portal-session');
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
  });
});
