import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { createSignedInAccount, tokenClaimsOf } from './support/accounts';
import { SCENARIOS_URL, signInWithoutForm, storedPayload, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';
import { findLink, waitForMail } from './support/mail';
import { buildXlsxBomb, buildXlsxOfRows } from '../src/testing/spreadsheets';

/** admin@demo.test on the Users page of Riverside EMS Academy, in a browser context of its own. */
async function openUsersAsAdmin(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInWithoutForm(page, 'admin@demo.test');
  await expect(page).toHaveURL(SCENARIOS_URL);
  await page.goto('/auth/org/invite');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  return page;
}

test('an admin invites a new address; the person signs up through the e-mailed link and joins', async ({
  browser,
  page,
  request,
}) => {
  const email = uniqueEmail('org-invite-new');
  const admin = await openUsersAsAdmin(browser);
  const riverside = (await storedPayload(admin))?.org;

  // The address is searched for first: nobody matches, and that answer is what the page holds.
  const table = admin.getByRole('table', { name: 'Users' });
  const searched = admin.waitForResponse(
    (response) => response.url().includes('/members?') && new URL(response.url()).searchParams.get('search') === email,
  );
  await admin.getByRole('searchbox', { name: 'Search users' }).fill(email);
  await searched;
  await expect(admin.getByText('Nothing to show')).toBeVisible();

  await admin.getByRole('button', { name: 'Invite User' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Invite User' });
  await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveText('Student');
  await expect(dialog.getByText(/^\d+ \+ 1 = \d+ of 25 seats$/)).toBeVisible();
  await dialog.getByLabel(/^Email/).fill('not-an-email');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByText('Invalid email address')).toBeVisible();
  await dialog.getByLabel(/^Email/).fill(email);
  await expectNoSeriousA11yViolations(admin, 'invite user dialog');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByText(`An invitation was sent to ${email}.`)).toBeVisible();
  // The users table shows the invitee at once, without a reload.
  await expect(table.getByRole('row').filter({ hasText: email }).getByText('Pending Invite')).toBeVisible();

  // Decision 8: no account yet, so the link opens the invite variant of sign-up.
  const link = findLink(await waitForMail({ to: email, subject: /invited to join Riverside EMS Academy/ }), '/auth/signup?');
  await page.goto(link);
  await expect(page.getByLabel(/^Email/)).toHaveValue(email);
  await page.getByLabel(/^First name/).fill('Ines');
  await page.getByLabel(/^Last name/).fill('Invited');
  await page.getByLabel(/^Password/).fill('Invited-Pass-2026');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);

  const payload = await storedPayload(page);
  expect(payload?.org).toBe(riverside);
  expect(payload?.groupsData).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'Riverside EMS Academy', parent: null, role: 'STUDENT' })]),
  );
  // Joined: no longer among Riverside's pending invitations.
  await tokenClaimsOf(request, 'admin@demo.test');
  const { idToken } = (await (await request.post('/api/users/auth/token')).json()) as { idToken: string };
  const pending = await request.get(`/api/users/invites/org/${String(riverside)}`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  expect(pending.ok()).toBe(true);
  const { invites } = (await pending.json()) as { invites: Array<{ email: string }> };
  expect(invites.map((invite) => invite.email)).not.toContain(email);
});

test('an admin bulk-invites an existing person; accepting from the link switches their organisation', async ({
  browser,
  page,
  request,
}) => {
  // A person of Northgate Nursing School, signed in on `page`.
  const person = await createSignedInAccount(page, request, { label: 'org-invite-existing', orgOwnerEmail: 'nurse@demo.test' });
  const admin = await openUsersAsAdmin(browser);
  const riverside = (await storedPayload(admin))?.org;
  expect(riverside).not.toBe(person.orgId);

  await admin.getByRole('button', { name: 'Bulk Invite' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Bulk Invite' });
  await dialog.getByRole('textbox', { name: 'Emails' }).fill(`${person.email}, not-an-email`);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('Invalid email address')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Remove not-an-email' }).click();
  await expect(dialog.getByText(/^\d+ \+ 1 = \d+ of 25 seats$/)).toBeVisible();
  await dialog.getByRole('combobox', { name: `Role for ${person.email}` }).click();
  await admin.getByRole('option', { name: 'Instructor' }).click();
  await expectNoSeriousA11yViolations(admin, 'bulk invite dialog');
  await dialog.getByRole('button', { name: 'Send' }).click();
  const results = admin.getByRole('dialog', { name: 'Invitations Sent' });
  await expect(results.getByText(person.email)).toBeVisible();
  await expect(results.getByText('Invitation sent')).toBeVisible();
  await expectNoSeriousA11yViolations(admin, 'bulk invite results');
  await results.getByRole('button', { name: 'Done' }).click();

  // Decision 8: an existing account gets the accept link.
  const link = findLink(await waitForMail({ to: person.email, subject: /Riverside EMS Academy/ }), '/auth/accept-invite?');
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/account\/profile$/);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Riverside EMS Academy' })).toBeVisible();
  const payload = await storedPayload(page);
  expect(payload?.org).toBe(riverside);
  expect(payload?.groupsData).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'Riverside EMS Academy', parent: null, role: 'USER' })]),
  );
});

test('bulk invite reads files off the page, and refuses one too large, one that unpacks too far and one too long', async ({
  browser,
}) => {
  const admin = await openUsersAsAdmin(browser);
  const blocked: string[] = [];
  admin.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await admin.getByRole('button', { name: 'Bulk Invite' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Bulk Invite' });
  const upload = dialog.getByLabel('Upload a csv, xls or xlsx file');
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

  // A real spreadsheet goes through the worker (and its libraries load under the page's CSP).
  await upload.setInputFiles({ name: 'cohort.xlsx', mimeType: xlsx, buffer: Buffer.from(buildXlsxOfRows(3)) });
  await expect(dialog.getByRole('list', { name: 'Addresses to invite' }).getByRole('listitem')).toHaveCount(3);
  await expect(dialog.getByText('person2@example.test', { exact: true })).toBeVisible();

  // Refused before it is read.
  await upload.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 0x61) });
  await expect(dialog.getByText('Can only load files up to 5 MB')).toBeVisible();

  // 345 KB that unpacks to 100 MB; the dialog takes typing while the file is read.
  const bomb = Buffer.from(buildXlsxBomb(100 * 1024 * 1024));
  expect(bomb.length).toBeLessThan(1024 * 1024);
  await upload.setInputFiles({ name: 'bomb.xlsx', mimeType: xlsx, buffer: bomb });
  await dialog.getByRole('textbox', { name: 'Emails' }).fill('typed@example.test');
  await expect(dialog.getByText('File content too large to load')).toBeVisible();
  await expect(dialog.getByRole('status')).toBeHidden();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('typed@example.test', { exact: true })).toBeVisible();

  const rows = Array.from({ length: 10_001 }, (_, index) => `learner${index}@example.test`).join('\n');
  await upload.setInputFiles({ name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(rows) });
  await expect(dialog.getByText('Can only load files up to 10,000 rows')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Addresses to invite' }).getByRole('listitem')).toHaveCount(4);
  await expectNoSeriousA11yViolations(admin, 'bulk invite dialog with a refused file');
  expect(blocked).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
