import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

test("an invitation link without a token says 'Missing invite token'", async ({ page }) => {
  await page.goto('/auth/accept-invite');
  await expect(page.getByRole('heading', { name: 'Accept invitation' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Missing invite token');
  await expectNoSeriousA11yViolations(page, 'accept invite (missing token)');
});

test('an invitation link that is not usable says so, signed in or not', async ({ page }) => {
  await page.goto('/auth/accept-invite?token=not-a-real-invitation-token');
  await expect(page.getByRole('alert')).toHaveText('The invitation is invalid or has expired.');
  await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'accept invite (invalid)');

  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/accept-invite?token=not-a-real-invitation-token' });
  await expect(page).toHaveURL(/\/auth\/accept-invite\?token=/);
  await expect(page.getByText('Signed in as')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('The invitation is invalid or has expired.');
});
