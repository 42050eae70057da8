import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { createSignedInAccount } from './support/accounts';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';
import { findLink, waitForMail } from './support/mail';

// Tests that change an account use a fresh one of their own: the demo accounts serve every spec.

/** Marks the page: the mark survives anything but a reload. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { e2eMark?: boolean }).e2eMark = true;
  });
}

async function isStillMarked(page: Page) {
  return page.evaluate(() => (window as unknown as { e2eMark?: boolean }).e2eMark === true);
}

test('saving names sends them and the shell shows them at once', async ({ page, request }) => {
  const account = await createSignedInAccount(page, request, { label: 'names' });
  await page.goto('/auth/account/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByText(`Signed in as ${account.givenName} ${account.familyName}`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'profile');
  await markPage(page);

  await page.getByLabel(/^First name/).fill('  Renamed ');
  await page.getByLabel(/^Last name/).fill('Person');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByText('Your profile has been saved.')).toBeVisible();
  await expect(page.getByText(`Signed in as Renamed Person (${account.email})`)).toBeVisible();
  await expect(page.getByLabel(/^First name/)).toHaveValue('Renamed');
  expect(await isStillMarked(page)).toBe(true);

  // Saved on the server: a fresh page load shows the new names.
  await page.reload();
  await expect(page.getByLabel(/^First name/)).toHaveValue('Renamed');
});

test('changing the e-mail asks first, logs out, and mails a verification link to the new address', async ({ page, request }) => {
  const { password } = await createSignedInAccount(page, request, { label: 'email-from' });
  const newEmail = `e2e-email-to-${Date.now()}@example.test`;
  await page.goto('/auth/account/profile');

  const changedAt = new Date();
  await page.getByLabel(/^Email/).fill(newEmail);
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Email Change' });
  await expect(dialog).toContainText('will log you out');
  await expect(dialog.getByRole('button', { name: 'Accept' })).toBeDisabled();
  await dialog.getByLabel(/^Current password/).fill(password);
  await expectNoSeriousA11yViolations(page, 'profile (e-mail change)');
  await dialog.getByRole('button', { name: 'Accept' }).click();

  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('status')).toHaveText('Verification email sent to new address');
  await expectNoSeriousA11yViolations(page, 'login (after e-mail change)');

  const mail = await waitForMail({ to: newEmail, after: changedAt });
  expect(findLink(mail, 'verify-email')).toContain('verify-email');
});

test('the key owner cannot leave their organisation: Leave is disabled and says why', async ({ page }) => {
  await signInWithoutForm(page, 'owner@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(page.getByRole('heading', { name: 'You are currently a member of 1 organization(s)' })).toBeVisible();
  const leave = page.getByRole('button', { name: 'Leave' });
  await expect(leave).toBeDisabled();
  await leave.locator('..').hover();
  await expect(page.getByRole('tooltip')).toHaveText("You can't leave an organization you are a key owner of");

  // Billing is offered to a user with a payment customer.
  await expect(page.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/auth/payment/portal');
});

test('a super admin in a dev organisation downloads the scenario summaries as summary.csv', async ({ page }) => {
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/account/profile' });
  await page.getByRole('button', { name: 'Summaries' }).click();
  await expectNoSeriousA11yViolations(page, 'profile (summaries menu)');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Scenario Summary (all members)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('summary.csv');
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString('utf8')).toMatch(/^email,given_name,family_name,scenario_id/);
});

test('a member leaves an organisation after confirming; the side nav follows without a reload', async ({ page, request }) => {
  await createSignedInAccount(page, request, { label: 'leaver' });
  await page.goto('/auth/account/profile');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'SCENARIOS' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You are currently a member of 1 organization(s)' })).toBeVisible();
  await markPage(page);

  await page.getByRole('button', { name: 'Leave' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Are you sure you want to leave?');
  await expectNoSeriousA11yViolations(page, 'profile (leave)');
  await dialog.getByRole('button', { name: 'Leave' }).click();

  await expect(page.getByRole('heading', { name: 'You are currently a member of 0 organization(s)' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'SCENARIOS' })).toHaveCount(0);
  expect(await isStillMarked(page)).toBe(true);
});
