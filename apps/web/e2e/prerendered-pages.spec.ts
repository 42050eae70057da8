import type { Page, Route } from '@playwright/test';
import { expect, test } from './support/test';
import { DEMO_PASSWORD, SCENARIOS_URL } from './support/auth';

/**
 * The sign-in and sign-up pages are prerendered at build time: their HTML shows the page, styled,
 * before any script has arrived, and React takes it over (hydrates it) once they have.
 */

/** Holds back every script of the app until `release` is called. */
async function holdScripts(page: Page): Promise<{ held: () => number; release: () => Promise<void> }> {
  const held: Route[] = [];
  let isHolding = true;
  await page.route('**/auth/assets/*.js', async (route) => {
    if (isHolding) held.push(route);
    else await route.continue();
  });
  return {
    held: () => held.length,
    release: async () => {
      isHolding = false;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

/** Every error or warning the page logs, and every page error, from now on. */
function watchConsole(page: Page): string[] {
  const noise: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') noise.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => noise.push(`page error: ${error.message}`));
  return noise;
}

test('the sign-in form takes typing before its scripts arrive, keeps it when React takes over, and signs in', async ({
  page,
}) => {
  const noise = watchConsole(page);
  const scripts = await holdScripts(page);
  // Not waiting for the load event: it comes after the scripts, which are held.
  await page.goto('/auth/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await expect.poll(scripts.held).toBeGreaterThan(0);

  const email = page.getByLabel(/^Email/);
  const password = page.getByLabel(/^Password/);
  await email.fill('owner@demo.test');
  await password.fill(DEMO_PASSWORD);
  // Still the prerendered HTML: React has not run.
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', '');

  await scripts.release();
  // Hydrated: the app removes the mark once React has taken the page over.
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
  await expect(email).toHaveValue('owner@demo.test');
  await expect(password).toHaveValue(DEMO_PASSWORD);

  // What was typed before the scripts is what the form sends.
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
  expect(noise).toEqual([]);
});

test('the sign-up page shows before its scripts arrive, and hydrates without a mismatch', async ({ page }) => {
  const noise = watchConsole(page);
  const scripts = await holdScripts(page);
  await page.goto('/auth/signup', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
  await expect.poll(scripts.held).toBeGreaterThan(0);
  await scripts.release();
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
  await expect(page.getByRole('button', { name: 'Sign Up' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
  expect(noise).toEqual([]);
});
