import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

function paymentProviderUrl(): string {
  const url = process.env.E2E_PAYMENT_PROVIDER_URL;
  if (!url) throw new Error('E2E_PAYMENT_PROVIDER_URL is not set: run the browser tests with `npm run test:e2e`.');
  return url;
}

test("a user with a payment customer goes from the profile's Billing link to the provider's billing portal", async ({ page }) => {
  await signInWithoutForm(page, 'owner@demo.test', { redirectUrl: '/auth/account/profile' });
  await page.getByRole('link', { name: 'Billing' }).click();
  await expect(page).toHaveURL(`${paymentProviderUrl()}/portal-landing`);
  await expect(page.getByRole('heading', { name: 'Billing portal' })).toBeVisible();
});

test('a user without a payment customer is told so, and nothing is asked of the server', async ({ page }) => {
  await signInWithoutForm(page, 'student@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Billing' })).toHaveCount(0);

  const portalCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/create-billing-portal-session')) portalCalls.push(request.url());
  });
  await page.goto('/auth/payment/portal');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing portal' })).toBeVisible();
  await expect(page.getByText('there is no billing portal to open')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to account' })).toHaveAttribute('href', '/auth/account/profile');
  await expectNoSeriousA11yViolations(page, 'billing portal (no payment customer)');
  expect(portalCalls).toEqual([]);
});
