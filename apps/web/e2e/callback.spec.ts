import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';

test('callback with nothing to complete says so, with a link back to login', async ({ page }) => {
  await page.goto('/auth/callback');
  await expect(page.getByRole('alert')).toHaveText('No authentication hash to parse');
  const back = page.getByRole('link', { name: 'Back to login' });
  await expect(back).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'callback (error)');
  await back.click();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test("callback shows an identity provider's error description from the fragment", async ({ page }) => {
  await page.goto('/auth/callback#error=access_denied&error_description=The%20sign-in%20was%20cancelled');
  await expect(page.getByRole('alert')).toHaveText('The sign-in was cancelled');
  await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
});
