import { expect, test } from './support/test';
import { SCENARIOS_URL, signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

test('a member of an organisation sees the library in the signed-in shell', async ({ page }) => {
  await signInWithoutForm(page, 'nurse@demo.test');
  await expect(page).toHaveURL(SCENARIOS_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Scenarios' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SCENARIOS' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Scenarios' }).getByRole('table')).toBeVisible();
});

test('an authoring path this product does not serve says so and links back to the account', async ({ page }) => {
  await page.goto('/authoring/assignments');
  await expect(page.getByRole('heading', { name: 'This page is not served here' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to your account' })).toHaveAttribute('href', '/auth/account/profile');
  await expectNoSeriousA11yViolations(page, 'not served');
});
