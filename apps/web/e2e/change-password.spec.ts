import { PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { expect, test } from './support/test';
import { createSignedInAccount } from './support/accounts';
import { SCENARIOS_URL, signIn } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

test('change password: its rules, a wrong old password, then success and sign-in with the new one', async ({ page, request }) => {
  const account = await createSignedInAccount(page, request, { label: 'password' });
  await page.goto('/auth/account/change-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Change password' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'change password');

  const oldField = page.getByLabel(/^Old password/);
  const newField = page.getByLabel(/^New password/);
  const confirmField = page.getByLabel(/^Confirm new password/);
  const submit = page.getByRole('button', { name: 'Change password' });
  const alert = page.getByRole('alert');

  await newField.fill('Brand-New-2026');
  await submit.click();
  await expect(alert).toHaveText('One or more fields is missing!');
  await expectNoSeriousA11yViolations(page, 'change password (missing)');

  await oldField.fill(account.password);
  await confirmField.fill('Brand-New-2027');
  await submit.click();
  await expect(alert).toHaveText('Passwords do not match!');

  await newField.fill('weakpassword');
  await confirmField.fill('weakpassword');
  await submit.click();
  await expect(alert).toContainText('Password is too weak');
  await expect(alert).toContainText(PASSWORD_POLICY_TEXT);

  await oldField.fill('Not-The-Old-1');
  await newField.fill('Brand-New-2026');
  await confirmField.fill('Brand-New-2026');
  await submit.click();
  await expect(alert).toHaveText('The old password is wrong.');

  await oldField.fill(account.password);
  await submit.click();
  await expect(page.getByRole('status')).toHaveText('Password changed successfully');
  await expectNoSeriousA11yViolations(page, 'change password (done)');

  await page.context().clearCookies();
  await signIn(page, account.email, { password: 'Brand-New-2026' });
  await expect(page).toHaveURL(SCENARIOS_URL);
});
