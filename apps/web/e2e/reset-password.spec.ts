import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { SCENARIOS_URL, signIn } from './support/auth';
import { findLink, waitForMail } from './support/mail';

const RESET_SENT = 'A password reset email has been sent. Please follow the link in that email to change your password.';
const ACCOUNT = 'noorg@demo.test';
const NEW_PASSWORD = 'Reset-Pass-2026';

test('request a reset, follow the e-mailed link, set a new password and sign in with it', async ({ page }) => {
  await page.goto('/auth/reset-password');
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'reset password (request)');

  const requestedAt = new Date();
  await page.getByLabel(/^Email/).fill(ACCOUNT);
  await page.getByRole('button', { name: 'Send reset email' }).click();
  await expect(page.getByText(RESET_SENT)).toBeVisible();

  const link = findLink(await waitForMail({ to: ACCOUNT, after: requestedAt }), '/auth/reset-password?');
  await page.goto(link);
  await expect(page.getByLabel(/^New password/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'reset password (new password)');

  await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
  await page.getByLabel(/^Confirm new password/).fill('Reset-Pass-2027');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Passwords do not match!')).toBeVisible();

  await page.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();

  await signIn(page, ACCOUNT, { password: NEW_PASSWORD });
  await expect(page).toHaveURL(SCENARIOS_URL);
});
