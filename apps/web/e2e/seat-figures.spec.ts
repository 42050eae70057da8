import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signInWithoutForm, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

/**
 * One seat count everywhere (decisions 0035 and 0046): the demo organisation Northgate Nursing
 * School shows the same members, pending invitations and open seats on its profile, in the
 * access area and in the invite dialogs, and a bulk list's member and pending invitee take
 * no new seat. Earlier specs on this server may have changed Northgate's people: the figures are
 * read from the profile, then required everywhere else.
 */

type Figures = { used: number; seats: number; breakdown: string };

async function openAs(browser: Browser, email: string, redirectUrl: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInWithoutForm(page, email, { redirectUrl });
  return page;
}

/** The seats card of the org profile: its sentence and legend. */
async function readProfile(page: Page): Promise<Figures> {
  await page.goto('/auth/org/profile');
  const seats = page.getByRole('region', { name: 'Seats' });
  const meter = seats.getByRole('img', { name: /^\d+ of \d+ seats used$/ });
  await expect(meter).toBeVisible();
  const [, used, total] = /^(\d+) of (\d+) seats used$/.exec((await meter.getAttribute('aria-label')) ?? '') ?? [];
  const legend = await seats.getByRole('list', { name: 'Seat use' }).getByRole('listitem').allTextContents();
  expect(legend).toHaveLength(3);
  const [members, pending, open] = legend.map((text) => Number.parseInt(text, 10));
  // The sentence and the legend tell one count: members and pending invitations use the seats, the rest are open.
  expect((members ?? 0) + (pending ?? 0)).toBe(Number(used));
  expect(Number(used) + (open ?? 0)).toBe(Math.max(Number(total), Number(used)));
  return { used: Number(used), seats: Number(total), breakdown: legend.join(', ') };
}

async function expectConsoleShows(page: Page, figures: Figures) {
  await page.goto('/auth/access/organizations');
  // The box may keep the last search: the row is awaited, not the request.
  await page.getByRole('searchbox', { name: 'Search organizations' }).fill('Northgate');
  const row = page.getByRole('table', { name: 'Organizations' }).getByRole('row', { name: /Northgate Nursing School/ });
  await expect(row.getByText(`${figures.used} of ${figures.seats}`, { exact: true })).toBeVisible();
  await expect(row.getByText(figures.breakdown, { exact: true })).toBeVisible();
}

test('the profile, the access area and the invite dialogs show one seat count for the demo organisation', async ({ browser }) => {
  // Two signed-in people, five screens, each checked with axe.
  test.setTimeout(120_000);
  const keyOwner = await openAs(browser, 'nurse@demo.test', '/auth/org/profile');
  const provider = await openAs(browser, 'super@demo.test', '/auth/access');

  const before = await readProfile(keyOwner);
  await expectNoSeriousA11yViolations(keyOwner, 'org profile seats card');
  await expectConsoleShows(provider, before);
  await expectNoSeriousA11yViolations(provider, 'access area organisations with seat figures');

  // The single invite: one new seat on top of the same count.
  await keyOwner.goto('/auth/org/invite');
  await keyOwner.getByRole('button', { name: 'Invite User' }).click();
  const single = keyOwner.getByRole('dialog', { name: 'Invite User' });
  await expect(single.getByText(`${before.used} + 1 = ${before.used + 1} of ${before.seats} seats`)).toBeVisible();
  await expect(single.getByText(before.breakdown, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(keyOwner, 'invite user dialog with seat figures');
  await single.getByRole('button', { name: 'Cancel' }).click();

  // A bulk list: the key owner is a member and takes no new seat; a new address takes one. Sent.
  const newcomer = uniqueEmail('seat-figures');
  await keyOwner.getByRole('button', { name: 'Bulk Invite' }).click();
  let bulk = keyOwner.getByRole('dialog', { name: 'Bulk Invite' });
  await bulk.getByRole('textbox', { name: 'Emails' }).fill(`nurse@demo.test ${newcomer}`);
  await bulk.getByRole('button', { name: 'Add' }).click();
  const addresses = bulk.getByRole('list', { name: 'Addresses to invite' });
  await expect(addresses.getByRole('listitem').filter({ hasText: 'nurse@demo.test' })).toContainText(
    'Already a member: takes no new seat',
  );
  await expect(bulk.getByText(`${before.used} + 1 = ${before.used + 1} of ${before.seats} seats`)).toBeVisible();
  await expect(bulk.getByText(before.breakdown, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(keyOwner, 'bulk invite dialog with seat figures');
  await bulk.getByRole('button', { name: 'Send' }).click();
  const results = keyOwner.getByRole('dialog', { name: 'Invitations Sent' });
  await expect(results.getByText('Invitation sent')).toBeVisible();
  await results.getByRole('button', { name: 'Done' }).click();

  // The new invitation keeps a seat: one more pending invitation, the same everywhere.
  const after = await readProfile(keyOwner);
  expect(after.used).toBe(before.used + 1);
  await expectConsoleShows(provider, after);
  await keyOwner.goto('/auth/org/invite');
  await keyOwner.getByRole('button', { name: 'Bulk Invite' }).click();
  bulk = keyOwner.getByRole('dialog', { name: 'Bulk Invite' });
  await expect(bulk.getByText(after.breakdown, { exact: true })).toBeVisible();
  // Listed again, the invitee's pending invitation is sent again: no new seat.
  await bulk.getByRole('textbox', { name: 'Emails' }).fill(newcomer);
  await bulk.getByRole('button', { name: 'Add' }).click();
  await expect(bulk.getByText('Invitation pending: sent again, takes no new seat')).toBeVisible();
  await expect(bulk.getByText(`${after.used} + 0 = ${after.used} of ${after.seats} seats`)).toBeVisible();
});
