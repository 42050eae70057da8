import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { expect, test } from './support/test';
import { signInWithoutForm, storedSessionKeys } from './support/auth';

test('logout clears the stored session and returns to login', async ({ page }) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await page.evaluate((key) => window.localStorage.setItem(key, 'true'), STORAGE_KEYS.disablePopupNotifications);

  await page.getByRole('button', { name: 'Riverside EMS Academy' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(page).toHaveURL(/\/auth\/login$/);
  for (const [key, value] of Object.entries(await storedSessionKeys(page))) {
    expect(value, `${key} after logout`).toBeNull();
  }

  // The server session is gone too: the callback cannot sign back in, and pages need login again.
  await page.goto('/auth/callback');
  await expect(page.getByRole('alert')).toBeVisible();
  await page.goto('/auth/account/profile');
  await expect(page).toHaveURL(/\/auth\/login\?redirectUrl=%2Fauth%2Faccount%2Fprofile$/);
});

test('logout in one tab logs out the other tabs', async ({ context }) => {
  const first = await context.newPage();
  await signInWithoutForm(first, 'admin@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(first.getByRole('heading', { name: 'Profile' })).toBeVisible();

  const second = await context.newPage();
  await second.goto('/auth/account/change-password');
  await expect(second.getByRole('heading', { name: 'Change password' })).toBeVisible();

  await first.getByRole('button', { name: 'Riverside EMS Academy' }).click();
  await first.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(first).toHaveURL(/\/auth\/login$/);

  // The other tab notices at its next 3-second session poll.
  await expect(second).toHaveURL(/\/auth\/login$/, { timeout: 8000 });
});
