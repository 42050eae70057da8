import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signInWithoutForm } from './support/auth';

const SCREENS = [
  { path: '/auth/account/profile', heading: 'Profile' },
  { path: '/auth/account/change-password', heading: 'Change password' },
  { path: '/auth/org/invite', heading: 'Users' },
  { path: '/auth/org/invite-subscribed', heading: 'Subscribed Users' },
  { path: '/auth/org/archived-users', heading: 'Grading Archive' },
  { path: '/auth/org/groups', heading: 'Groups' },
  { path: '/auth/groups', heading: 'Groups' },
  { path: '/auth/access', heading: 'Access' },
  { path: '/auth/access/organizations', heading: 'Organizations' },
  { path: '/auth/access/users', heading: 'Users' },
  { path: '/auth/access/cases', heading: 'Cases' },
  { path: '/auth/access/skeleton', heading: 'View As User' },
  { path: '/auth/access/templates', heading: 'Templates' },
  { path: '/auth/access/notifications', heading: 'Notifications' },
  { path: '/auth/payment/portal', heading: 'Billing portal' },
  { path: '/auth/accept-invite', heading: 'Accept invitation' },
] as const;

test('a super admin sees every side nav button, and Go Back leaves the cases tool for the access area', async ({ page }) => {
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const label of ['SCENARIOS', 'ASSIGNMENTS', 'ACCOUNT', 'ORG MANAGEMENT', 'ACCESS', 'CMS']) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'SCENARIOS' })).toHaveAttribute('href', '/authoring/cases');
  await expect(nav.getByRole('link', { name: 'ACCESS' })).toHaveAttribute('href', '/auth/access/organizations');
  await expect(nav.getByRole('link', { name: 'CMS' })).toHaveAttribute('href', '/cms');

  await page.goto('/auth/access/cases');
  await page.getByRole('link', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/auth\/access$/);
});

// One test a screen, each with a timeout of its own, on one signed-in page: a full page load and an
// axe run each.
test.describe('every screen of a super admin', () => {
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser, e2eServer }) => {
    context = await browser.newContext({ baseURL: e2eServer.baseUrl });
    page = await context.newPage();
    await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/account/profile' });
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  });

  test.afterAll(async () => {
    await context.close();
  });

  for (const screen of SCREENS) {
    test(`${screen.path} shows in the shell and passes axe`, async () => {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
      await expect(page.getByText('Signed in as')).toBeVisible();
      await expectNoSeriousA11yViolations(page, screen.path);
    });
  }
});

test('a student sees neither assignments nor org management', async ({ page }) => {
  await signInWithoutForm(page, 'student@demo.test', { redirectUrl: '/auth/account/profile' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'SCENARIOS' })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^ACCOUNT/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'ASSIGNMENTS' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'ORG MANAGEMENT' })).toHaveCount(0);
  await expect(page.getByText('You are currently a member of 1 organization(s)')).toBeVisible();
});

test("a payment issue puts a '!' badge on ACCOUNT", async ({ page }) => {
  await signInWithoutForm(page, 'medic@demo.test', { redirectUrl: '/auth/account/profile' });
  const account = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^ACCOUNT/ });
  await expect(account).toContainText('!');
  await expect(account).toHaveAccessibleName(/payment issue/);
});

test('the key owner manages the organisation from its profile', async ({ page }) => {
  await signInWithoutForm(page, 'owner@demo.test', { redirectUrl: '/auth/account/profile' });
  const orgManagement = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'ORG MANAGEMENT' });
  await expect(orgManagement).toHaveAttribute('href', '/auth/org/profile');
  await orgManagement.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Org. Profile' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'org profile');
});
