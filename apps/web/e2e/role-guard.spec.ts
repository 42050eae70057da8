import { expect, test } from '@playwright/test';
import { signIn } from './support/auth';

const PROFILE_URL = /\/auth\/account\/profile$/;

test('an unauthenticated visitor is sent to login', async ({ page }) => {
  await page.goto('/auth/access');
  await expect(page).toHaveURL(/\/auth\/login\?redirectUrl=%2Fauth%2Faccess$/);
});

test('a student opening /auth/access is sent to the profile', async ({ page }) => {
  await signIn(page, 'student@demo.test', { redirectUrl: '/auth/access' });
  await expect(page).toHaveURL(PROFILE_URL);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();

  await page.goto('/auth/access/users');
  await expect(page).toHaveURL(PROFILE_URL);
  await page.goto('/auth/org/groups');
  await expect(page).toHaveURL(PROFILE_URL);
});

test('an instructor may manage the organisation but not open the access area', async ({ page }) => {
  await signIn(page, 'instructor@demo.test', { redirectUrl: '/auth/org' });
  await expect(page).toHaveURL(/\/auth\/org\/groups$/);
  await page.goto('/auth/access');
  await expect(page).toHaveURL(PROFILE_URL);
});
