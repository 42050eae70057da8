import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf, provisionMember, tokenClaimsOf } from './support/accounts';
import { SCENARIOS_URL, signIn, signInWithoutForm, uniqueEmail } from './support/auth';

/*
 * Normal use asks the server only what it can answer: no refused request and nothing in the browser
 * console along these flows. "None" (an organisation without a key owner) is an answer, not an error.
 */

test.describe.configure({ timeout: 120_000 });

/** Everything the page logs as an error or warning, and every answer of 400 or more, from now on. */
function watchNoise(page: Page): { noise: string[] } {
  const noise: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') noise.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => noise.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      noise.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
  return { noise };
}

test('an organisation without a key owner opens in the console without a refused request', async ({ page, request }) => {
  const token = await idTokenOf(request, 'super@demo.test');
  const found = await request.get('/api/users/search/groups', {
    params: { term: 'Dormant Ambulance' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(found.ok()).toBe(true);
  const dormant = ((await found.json()) as { _id: string; name: string }[]).find(
    (group) => group.name === 'Dormant Ambulance Service',
  );
  if (!dormant) throw new Error('the demo data has no Dormant Ambulance Service');

  const { noise } = watchNoise(page);
  const keyOwnerAnswered = page.waitForResponse((response) => response.url().endsWith(`/groups/${dormant._id}/key-owner`));
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: `/auth/access/organizations/${dormant._id}` });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect((await keyOwnerAnswered).status()).toBe(200);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Dormant Ambulance Service');
  // No key owner: the card says none.
  await expect(page.getByRole('definition').filter({ hasText: 'Change Group Admin' })).toContainText('—');
  expect(noise).toEqual([]);
});

test('signing in through the license step and onto the verify screen asks nothing the server refuses', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('quiet-register');
  const password = 'Quiet-Pass-2026';
  const registered = await request.post('/api/users/auth/register', {
    data: { email, given_name: 'Quinn', family_name: 'Quiet', password },
  });
  expect(registered.ok(), 'registering an account of its own').toBe(true);

  const { noise } = watchNoise(page);
  await signIn(page, email, { password });
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/auth\/verify$/);
  await expect(page.getByText('A confirmation email has been sent to')).toBeVisible();
  // The screen's own requests have settled.
  await page.waitForLoadState('networkidle');
  expect(noise).toEqual([]);
});

test('a member who has not accepted the license signs in through it to the scenarios quietly', async ({ page, request }) => {
  const { org } = await tokenClaimsOf(request, 'owner@demo.test');
  if (!org) throw new Error('owner@demo.test has no organisation');
  const member = await provisionMember(request, { orgId: org, label: 'quiet-license' });

  const { noise } = watchNoise(page);
  await signIn(page, member.email, { password: member.password });
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
  await page.waitForLoadState('networkidle');
  expect(noise).toEqual([]);
});

test('View As, then Login As, leaves no refused search behind', async ({ page }) => {
  const { noise } = watchNoise(page);
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/skeleton' });
  await expect(page.getByRole('heading', { level: 1, name: 'View As User' })).toBeVisible();
  await page.getByLabel('Organization').fill('Rive');
  await page.getByRole('option', { name: 'Riverside EMS Academy' }).click();
  await page.getByLabel('User').fill('student@');
  await page.getByRole('option', { name: /\(student@demo\.test\)$/ }).click();
  await page.getByRole('button', { name: 'Login As' }).click();

  await expect(page).toHaveURL(/\/auth\/account\/profile$/);
  const banner = page.getByRole('status').filter({ hasText: 'You are viewing PatientSim as' });
  await expect(banner).toContainText('(student@demo.test)');
  await page.waitForLoadState('networkidle');
  expect(noise).toEqual([]);

  await banner.getByRole('button', { name: 'End session' }).click();
  await expect(page).toHaveURL(/\/auth\/access\/skeleton$/);
  await page.waitForLoadState('networkidle');
  expect(noise).toEqual([]);
});
