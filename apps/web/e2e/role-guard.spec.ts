import { expect, test } from './support/test';
import { DEMO_PASSWORD, SCENARIOS_URL, signInWithoutForm } from './support/auth';

const PROFILE_URL = /\/auth\/account\/profile$/;

test('an unauthenticated visitor is sent to login', async ({ page }) => {
  await page.goto('/auth/access');
  await expect(page).toHaveURL(/\/auth\/login\?redirectUrl=%2Fauth%2Faccess$/);
});

test('a student opening /auth/access is sent to the profile', async ({ page }) => {
  await signInWithoutForm(page, 'student@demo.test', { redirectUrl: '/auth/access' });
  await expect(page).toHaveURL(PROFILE_URL);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();

  await page.goto('/auth/access/users');
  await expect(page).toHaveURL(PROFILE_URL);
  await page.goto('/auth/org/groups');
  await expect(page).toHaveURL(PROFILE_URL);
});

test('an instructor may manage the organisation but not open the access area', async ({ page }) => {
  await signInWithoutForm(page, 'instructor@demo.test', { redirectUrl: '/auth/org' });
  await expect(page).toHaveURL(/\/auth\/org\/groups$/);
  await page.goto('/auth/access');
  await expect(page).toHaveURL(PROFILE_URL);
});

test('an admin may open org management but not the access area, and the side nav offers neither ACCESS nor CMS', async ({
  page,
}) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org' });
  await expect(page).toHaveURL(/\/auth\/org\/invite$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'ORG MANAGEMENT' })).toHaveAttribute('href', '/auth/org/invite');
  await expect(nav.getByRole('link', { name: 'ASSIGNMENTS' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'ACCESS' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'CMS' })).toHaveCount(0);
  await page.goto('/auth/groups');
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  for (const path of ['/auth/access', '/auth/access/organizations', '/auth/access/skeleton']) {
    await page.goto(path);
    await expect(page).toHaveURL(PROFILE_URL);
  }
});

test('a super admin opens the access tools', async ({ page }) => {
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/users' });
  await expect(page).toHaveURL(/\/auth\/access\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.goto('/auth/access/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
});

test('the authoring guard sends a visitor to login and brings them back after sign-in', async ({ page }) => {
  await page.goto('/authoring/cases');
  await expect(page).toHaveURL(/\/auth\/login\?t=\d+&redirectUrl=%2Fauthoring%2Fcases$/);
  await page.getByLabel(/^Email/).fill('owner@demo.test');
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
});

test('the authoring guard sends an unverified user to the verify screen', async ({ page }) => {
  await signInWithoutForm(page, 'unverified@demo.test');
  await expect(page).toHaveURL(/\/auth\/verify$/);
  await page.goto('/authoring/cases');
  await expect(page).toHaveURL(/\/auth\/verify$/);
});
