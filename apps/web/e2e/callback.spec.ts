import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';

test('callback without a session shows the error and a link back to login', async ({ page }) => {
  await page.goto('/auth/callback');
  await expect(page.getByRole('alert')).toBeVisible();
  const back = page.getByRole('link', { name: 'Back to login' });
  await expect(back).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'callback (error)');
  await back.click();
  await expect(page).toHaveURL(/\/auth\/login$/);
});
