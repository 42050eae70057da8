import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { type Page, expect } from '@playwright/test';

/** The password of every demo account (spec/demo-data.md). */
export const DEMO_PASSWORD = 'Sim-Demo-2026';

/** A fresh address for accounts a test creates. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

/** Fills the login form and submits it; the page then goes through the callback. */
export async function signIn(
  page: Page,
  email: string,
  options: { password?: string; redirectUrl?: string } = {},
): Promise<void> {
  const query = options.redirectUrl ? `?${new URLSearchParams({ redirectUrl: options.redirectUrl }).toString()}` : '';
  await page.goto(`/auth/login${query}`);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/**
 * Signs in as the login form does, without showing it: the sign-in call (its session cookie goes
 * to the page's browser context), then the callback page, which completes the login and goes on
 * to `redirectUrl`, the license, the organisation selection or the verify screen, as after the
 * form. For tests about what comes after signing in; the login form's own tests use `signIn`.
 */
export async function signInWithoutForm(
  page: Page,
  email: string,
  options: { password?: string; redirectUrl?: string } = {},
): Promise<void> {
  const response = await page.request.post('/api/users/auth/sign-in', {
    data: { email, password: options.password ?? DEMO_PASSWORD },
  });
  expect(response.ok(), `sign-in of ${email}`).toBe(true);
  const query = options.redirectUrl ? `?${new URLSearchParams({ redirectUrl: options.redirectUrl }).toString()}` : '';
  await page.goto(`/auth/callback${query}`);
}

/** Where a signed-in, verified user with at most one organisation lands. */
export const SCENARIOS_URL = /\/authoring\/cases(\?.*)?$/;

/** The stored login result's payload, read from the page's localStorage. */
export async function storedPayload(page: Page): Promise<Record<string, unknown> | null> {
  return page.evaluate((key) => {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { idTokenPayload?: Record<string, unknown> };
    return parsed.idTokenPayload ?? null;
  }, STORAGE_KEYS.result);
}

/** The values of the session keys in the page's localStorage (null when absent). */
export async function storedSessionKeys(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((key) => [key, window.localStorage.getItem(key)])),
    Object.values(STORAGE_KEYS),
  );
}
