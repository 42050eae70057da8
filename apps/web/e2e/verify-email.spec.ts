import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { SCENARIOS_URL, signIn } from './support/auth';
import { findLink, waitForMail } from './support/mail';

test('an unverified user resends the e-mail, follows its link and signs in verified', async ({ page }) => {
  await signIn(page, 'unverified@demo.test');
  await expect(page).toHaveURL(/\/auth\/verify$/);
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await expect(page.getByText('A confirmation email has been sent to')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'verify');

  const sentAfter = new Date();
  await page.getByRole('button', { name: 'Resend Verification Email' }).click();
  await expect(page.getByText('Verification email sent')).toBeVisible();

  const link = findLink(await waitForMail({ to: 'unverified@demo.test', after: sentAfter }), 'verify-email');
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/emailVerified/);
  const landedAt = Date.now();
  await expect(page.getByRole('heading', { name: 'Email verification' })).toBeVisible();

  await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 5000 });
  expect(Date.now() - landedAt).toBeGreaterThanOrEqual(1000);

  await signIn(page, 'unverified@demo.test');
  await expect(page).toHaveURL(SCENARIOS_URL);
});

test('the e-mail verified screen reports a bad link', async ({ page }) => {
  await page.goto('/auth/emailVerified?error=invalid_token');
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'email verified (error)');
});

test('the e-mail verified screen is accessible while it redirects', async ({ page }) => {
  await page.clock.install();
  await page.goto('/auth/emailVerified');
  await expect(page.getByRole('status')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'email verified');
  await page.clock.runFor(1500);
  await expect(page).toHaveURL(/\/auth\/login$/);
});
