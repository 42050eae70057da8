import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DEMO_PASSWORD, SCENARIOS_URL, signIn } from './support/auth';

test.describe('login', () => {
  test('shows the form at /auth/login and at the /auth/ alias, with its links', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'login');

    await page.goto('/auth/');
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page.getByLabel(/^Email/)).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toBeVisible();

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/auth\/signup$/);
    await page.goBack();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/auth\/reset-password$/);
  });

  test('shows errors in red on the form', async ({ page }) => {
    await page.goto('/auth/login');
    await page.getByLabel(/^Email/).fill('owner@demo.test');
    await page.getByRole('button', { name: 'Log In' }).click();

    const required = page.getByText('Must specify a password.');
    await expect(required).toBeVisible();
    await expect(required).toHaveCSS('color', 'rgb(211, 47, 47)');
    await expectNoSeriousA11yViolations(page, 'login (missing password)');

    await page.getByLabel(/^Password/).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Log In' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    await expect(alert).toHaveClass(/MuiAlert-colorError/);
    await expect(alert).not.toBeEmpty();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expectNoSeriousA11yViolations(page, 'login (wrong password)');
  });

  test('signs a verified single-organisation user in to the scenarios', async ({ page }) => {
    await signIn(page, 'owner@demo.test', { password: DEMO_PASSWORD });
    await expect(page).toHaveURL(SCENARIOS_URL);
  });

  test('carries redirectUrl through the callback', async ({ page }) => {
    await signIn(page, 'admin@demo.test', { redirectUrl: '/auth/account/profile' });
    await expect(page).toHaveURL(/\/auth\/account\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  });
});
