import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { SCENARIOS_URL, storedPayload, uniqueEmail } from './support/auth';
import { findLink, waitForMail } from './support/mail';

test('plain sign-up → e-mail → invite sign-up → license → verify → scenarios', async ({ page }) => {
  const email = uniqueEmail('loop');

  await page.goto('/auth/signup');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Account type/).selectOption({ label: 'EMS' });
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('status')).toContainText('An invitation has been sent');

  await page.goto(findLink(await waitForMail({ to: email }), '/auth/signup?'));
  await page.getByLabel(/^First name/).fill('Lou');
  await page.getByLabel(/^Last name/).fill('Loop');
  await page.getByLabel(/^Password/).fill('Loop-Pass-2026');
  await page.getByRole('button', { name: 'Sign Up' }).click();

  // The new account has not accepted the license: the callback sends it there first.
  await expect(page).toHaveURL(/\/auth\/license\?/);
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await page.getByLabel('I agree with the license agreement').check();
  await expect(next).toBeEnabled();
  await expectNoSeriousA11yViolations(page, 'license (sign-up)');
  await next.click();

  // Back through the callback and the verify screen: the link proved the address.
  await expect(page).toHaveURL(SCENARIOS_URL);
  const payload = await storedPayload(page);
  expect(payload?.email).toBe(email);
  expect(payload?.email_verified).toBe(true);
  expect(payload?.given_name).toBe('Lou');
});
