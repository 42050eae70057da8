import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf, provisionMember, tokenClaimsOf } from './support/accounts';
import { signInWithoutForm, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

/** Types a search and waits for the answer to the call the box sends 500 ms after typing stops. */
async function search(page: Page, box: string, term: string, path: string) {
  const answered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === path && (url.searchParams.get('term') ?? url.searchParams.get('search')) === term;
  });
  await page.getByRole('searchbox', { name: box }).fill(term);
  await answered;
}

/**
 * A new member of Riverside EMS Academy (family name made unique), and a super admin's page open
 * on the Users tool.
 */
async function openUsersToolWith(
  browser: Browser,
  request: APIRequestContext,
  person: { label: string; givenName: string; familyName: string },
) {
  const { org: riverside } = await tokenClaimsOf(request, 'owner@demo.test');
  if (!riverside) throw new Error('owner@demo.test has no organisation');
  const familyName = `${person.familyName}${Date.now() % 1_000_000}`;
  const member = await provisionMember(request, { orgId: riverside, ...person, familyName });
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/users' });
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  return {
    context,
    page,
    member,
    name: `${person.givenName} ${familyName}`,
    results: page.getByRole('table', { name: 'Users' }),
  };
}

test('a super admin lists organisations and creates one with its key owner in one step', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access' });
  await expect(page.getByRole('heading', { level: 1, name: 'Access' })).toBeVisible();
  for (const tool of ['Organizations', 'Users', 'Cases', 'Skeleton Key', 'Templates', 'Notifications']) {
    await expect(page.getByRole('link', { name: tool })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Organizations' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  // In a tool, the menu gives way to a Go Back button.
  await expect(page.getByRole('link', { name: 'Go Back' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Skeleton Key' })).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Organizations' });
  await search(page, 'Search organizations', 'Dormant', '/api/users/organizations');
  const dormant = table.getByRole('row', { name: /Dormant Ambulance Service/ });
  await expect(dormant.getByText('Inactive')).toBeVisible();
  await expect(dormant.getByText('Emergency')).toBeVisible();
  await search(page, 'Search organizations', 'Harbor', '/api/users/organizations');
  await expect(table.getByRole('row', { name: /Harbor Medic Unit/ }).getByText('3 of 3')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'access organizations');

  // A new customer organisation with its key owner, in one step; seats must be whole numbers.
  const name = `E2E Console ${Date.now() % 1_000_000}`;
  const keyOwnerEmail = uniqueEmail('console-owner');
  await page.getByRole('button', { name: 'Create organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create organization' });
  await expect(dialog.getByLabel('Seats')).toHaveValue('0');
  await dialog.getByLabel(/^Organization name/).fill(name);
  await dialog.getByRole('combobox', { name: 'Product type' }).click();
  await page.getByRole('option', { name: 'Nursing' }).click();
  await dialog.getByLabel('Seats').fill('2.5');
  await dialog.getByLabel(/^Key owner email/).fill(keyOwnerEmail);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Seats must be an integer')).toBeVisible();
  await dialog.getByLabel('Seats').fill('3');
  await expectNoSeriousA11yViolations(page, 'create organization dialog');
  await dialog.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(/\/auth\/access\/organizations\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Organization details' })).toBeVisible();
  await expect(page.getByText(`${name} was created and ${keyOwnerEmail} was invited as its key owner.`)).toBeVisible();
  // The key owner's invitation keeps a seat until they accept and hold it (decision 0035).
  await expect(page.getByText('1 of 3 seats used').first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Product type' })).toHaveText('Nursing');
  const members = page.getByRole('table', { name: 'Users' });
  await expect(members.getByRole('row', { name: new RegExp(keyOwnerEmail) }).getByText('Pending Invite')).toBeVisible();
  await page.getByRole('link', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/auth\/access$/);

  await context.close();
});

test('a super admin changes the key owner, flags, seats and status of an organisation', async ({ browser, request }) => {
  const token = await idTokenOf(request, 'super@demo.test');
  const name = `E2E Console Settings ${Date.now() % 1_000_000}`;
  const created = await request.post('/api/users/invitations/invite', {
    headers: { Authorization: `Bearer ${token}` },
    data: { users: [{ email: uniqueEmail('console-first') }], org: { name, productType: 'EMS', seats: 3 } },
  });
  expect(created.ok(), 'creating the organisation').toBe(true);
  const orgId = ((await created.json()) as Array<{ createdOrg: { _id: string } }>)[0]?.createdOrg._id ?? '';
  const admin = await provisionMember(request, {
    orgId,
    role: 'ADMIN',
    label: 'console-admin',
    givenName: 'Olga',
    familyName: 'Ownerton',
  });

  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: `/auth/access/organizations/${orgId}` });
  await expect(page.getByRole('heading', { level: 1, name: 'Organization details' })).toBeVisible();
  const members = page.getByRole('table', { name: 'Users' });
  // An admin of the organisation becomes its key owner after the spec's confirmation.
  await expect(members.getByText(admin.email)).toBeVisible();
  await page.getByRole('button', { name: 'Change Group Admin' }).click();
  const change = page.getByRole('dialog', { name: 'Change Group Admin' });
  await change.getByLabel(/New Group Admin/).fill('Ownerton');
  await page.getByRole('option', { name: new RegExp(admin.email) }).click();
  await change.getByRole('button', { name: 'Next' }).click();
  await expect(change.getByText('Changing the Group Admin will prevent you from further editing this group')).toBeVisible();
  await change.getByRole('button', { name: 'Change Group Admin' }).click();
  await expect(change).toHaveCount(0);
  const profile = page.getByRole('region', { name: 'Organization', exact: true });
  await expect(profile.getByText('Olga Ownerton')).toBeVisible();
  await expect(members.getByRole('row', { name: new RegExp(admin.email) }).getByText('Key Owner')).toBeVisible();

  // Flags, seats and status.
  const testing = page.getByRole('checkbox', { name: 'Testing' });
  await expect(testing).not.toBeChecked();
  // A flag is saved at once; the box shows what the server answered.
  await testing.click();
  await expect(testing).toBeChecked();
  await page.getByRole('checkbox', { name: 'AI dialogue' }).click();
  await expect(page.getByRole('checkbox', { name: 'AI dialogue' })).toBeChecked();
  const seats = page.getByRole('textbox', { name: 'Seats' });
  await seats.fill('abc');
  await expect(page.getByText('Seats must be an integer')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save seats' })).toBeDisabled();
  await seats.fill('7');
  await page.getByRole('button', { name: 'Save seats' }).click();
  // The provisioned admin holds a seat; the first invitation, still pending, keeps one.
  await expect(page.getByText('2 of 7 seats used').first()).toBeVisible();
  await page.getByRole('button', { name: 'Change Status' }).click();
  const status = page.getByRole('dialog', { name: 'Change Status' });
  await expect(status.getByText('Inactive organizations have no access to cases.')).toBeVisible();
  await status.getByRole('button', { name: 'Deactivate' }).click();
  await expect(status).toHaveCount(0);
  await expect(profile.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(profile.getByRole('button', { name: 'Change Status' })).toBeEnabled();

  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Testing' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'AI dialogue' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Debug' })).not.toBeChecked();
  await expect(profile.getByText('Olga Ownerton')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Groups' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'organization details');

  await page.getByRole('link', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/auth\/access$/);
  await context.close();
});

test('a super admin finds a user, reads their memberships and moves them to another organisation', async ({
  browser,
  request,
}) => {
  const {
    context,
    page,
    member: mover,
    name,
    results,
  } = await openUsersToolWith(browser, request, {
    label: 'console-mover',
    givenName: 'Mova',
    familyName: 'Mover',
  });
  await expect(page.getByText('Use the search bar to search for a user')).toBeVisible();
  const searches: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/users/search/users') searches.push(sent.url());
  });
  await page.getByRole('searchbox', { name: 'Search users by email or name' }).fill('Mo');
  await expect(page.getByText('Enter at least 3 characters to search')).toBeVisible();
  await page.waitForTimeout(700);
  expect(searches).toEqual([]);
  await expectNoSeriousA11yViolations(page, 'access users');

  // Details, memberships and role.
  await search(page, 'Search users by email or name', mover.familyName, '/api/users/search/users');
  await expect(results.getByText(mover.email)).toBeVisible();
  await results.getByRole('button', { name: `Details of ${name}` }).click();
  const panel = page.getByRole('region', { name });
  const memberships = panel.getByRole('table', { name: `Memberships of ${name}` });
  await expect(memberships.getByRole('row', { name: /Riverside EMS Academy/ }).getByText('Student')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'access user details');

  // Change of organisation (only here), after a confirmation.
  await panel.getByRole('button', { name: 'Change organization' }).click();
  const move = page.getByRole('dialog', { name: 'Change organization' });
  await move.getByLabel(/To organization/).fill('Northgate');
  await page.getByRole('option', { name: 'Northgate Nursing School' }).click();
  await expectNoSeriousA11yViolations(page, 'change organization dialog');
  await move.getByRole('button', { name: 'Next' }).click();
  await expect(
    move.getByText(/Move Mova Mover\d+ from Riverside EMS Academy to Northgate Nursing School as Student\?/),
  ).toBeVisible();
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText(`${name} is now a member of Northgate Nursing School.`)).toBeVisible();
  await expect(memberships.getByRole('row', { name: /Northgate Nursing School/ }).getByText('Member')).toBeVisible();
  await expect(memberships.getByRole('row', { name: /Riverside EMS Academy/ }).getByText('Removed')).toBeVisible();

  await context.close();
});

test('a super admin finds all 55 scenario testers in two pages, by name', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/users' });
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  const results = page.getByRole('table', { name: 'Users' });
  await search(page, 'Search users by email or name', 'tester', '/api/users/search/users');
  await expect(page.getByText('page 1 of 2')).toBeVisible();
  const emails = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_item, index) => `tester${String(from + index).padStart(2, '0')}@demo.test`);
  // The middle of the alphabet too: no match is dropped for another.
  await expect(results.getByRole('cell', { name: /^tester\d\d@demo\.test$/ })).toHaveText(emails(1, 50));
  await expectNoSeriousA11yViolations(page, 'access users, first page of a search');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('page 2 of 2')).toBeVisible();
  await expect(results.getByRole('cell', { name: /^tester\d\d@demo\.test$/ })).toHaveText(emails(51, 55));
  await context.close();
});

test('a super admin deletes a user after confirmation, and finds them again among the deleted users', async ({
  browser,
  request,
}) => {
  const {
    context,
    page,
    member: leaving,
    name,
    results,
  } = await openUsersToolWith(browser, request, {
    label: 'console-gone',
    givenName: 'Della',
    familyName: 'Gone',
  });
  // Archived, not erased.
  await search(page, 'Search users by email or name', leaving.familyName, '/api/users/search/users');
  await results.getByRole('button', { name: `Details of ${name}` }).click();
  const gonePanel = page.getByRole('region', { name });
  await gonePanel.getByRole('button', { name: 'Delete user' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete user' });
  await expect(confirm.getByText(/archived, not erased/)).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${name} was deleted.`)).toBeVisible();
  await expect(gonePanel.getByText('Deleted', { exact: true })).toBeVisible();
  await expect(gonePanel.getByRole('button', { name: 'Delete user' })).toBeDisabled();
  await expect(results.getByText(leaving.email)).toHaveCount(0);
  const withDeleted = page.waitForResponse((response) => new URL(response.url()).searchParams.get('includeDeleted') === 'true');
  await page.getByRole('checkbox', { name: 'Include deleted users' }).check();
  await withDeleted;
  await expect(results.getByRole('row', { name: new RegExp(leaving.email) }).getByText('Deleted')).toBeVisible();
  await context.close();
});
