import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { provisionMember, tokenClaimsOf } from './support/accounts';
import { signInWithoutForm, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';
import { findLink, waitForMail } from './support/mail';

/** The search terms the users list was asked for on `page` since the call. */
function recordSearches(page: Page): string[] {
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/\/extension\/groups\/[^/]+\/members$/.test(url.pathname)) searches.push(url.searchParams.get('search') ?? '');
  });
  return searches;
}

async function searchFor(page: Page, term: string) {
  const answered = page.waitForResponse(
    (response) => response.url().includes('/members?') && new URL(response.url()).searchParams.get('search') === term,
  );
  await page.getByRole('searchbox', { name: 'Search users' }).fill(term);
  await answered;
}

test('an admin pages, searches, edits and removes users; the removed one is in the Grading Archive', async ({
  browser,
  request,
}) => {
  const { org } = await tokenClaimsOf(request, 'owner@demo.test');
  if (!org) throw new Error('owner@demo.test has no organisation');
  const editable = await provisionMember(request, {
    orgId: org,
    label: 'users-edit',
    givenName: 'Edith',
    familyName: 'Editable',
  });
  const removable = await provisionMember(request, {
    orgId: org,
    label: 'users-remove',
    givenName: 'Remy',
    familyName: 'Removable',
  });

  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/archived-users' });
  await expect(page.getByRole('heading', { level: 1, name: 'Grading Archive' })).toBeVisible();
  // The former cohort learners fill more than one page of 50.
  await expect(page.getByText('page 1 of 2')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Grading' }).first()).toHaveAttribute(
    'href',
    /\/authoring\/cases\/grades\?userId=/,
  );
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('page 2 of 2')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'grading archive');

  await page.goto('/auth/org/invite');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByText('owner@demo.test')).toBeVisible();
  await expect(table.getByText('Key Owner')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'org users');

  // Two characters request nothing; three do.
  const searches = recordSearches(page);
  await page.getByRole('searchbox', { name: 'Search users' }).fill('Ed');
  await expect(page.getByText('Enter at least 3 characters to search')).toBeVisible();
  await searchFor(page, editable.email);
  expect(searches).not.toContain('Ed');
  await expect(table.getByRole('row')).toHaveCount(2);

  await page.getByRole('button', { name: 'Actions for Edith Editable' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user' });
  await dialog.getByRole('textbox', { name: /First name/ }).fill('Edwina');
  await expectNoSeriousA11yViolations(page, 'edit user dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByText('Edwina Editable')).toBeVisible();

  await searchFor(page, removable.email);
  await page.getByRole('button', { name: 'Actions for Remy Removable' }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove user' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Nothing to show')).toBeVisible();

  await page.goto('/auth/org/archived-users');
  await searchFor(page, removable.email);
  // The row of the removed person (the unfiltered rows may still show while the search renders).
  const archived = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: removable.email });
  await expect(archived.getByText('Student Removed')).toBeVisible();
  await expect(archived.getByRole('link', { name: 'Go to Grading' })).toBeVisible();
  await context.close();
});

test('an instructor sees the users without Remove', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'instructor@demo.test', { redirectUrl: '/auth/org/invite' });
  // Another spec may have moved the instructor to the organisation of their invitation: whichever
  // organisation is active, they are listed in it.
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByText('instructor@demo.test')).toBeVisible();
  await page
    .getByRole('button', { name: /^Actions for / })
    .first()
    .click();
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Remove' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'org users as instructor');
  await context.close();
});

test('an admin resends and revokes a pending invitation from its row in the users table', async ({ browser }) => {
  const email = uniqueEmail('users-invitee');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/invite' });
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByText('owner@demo.test')).toBeVisible();
  await page.getByRole('button', { name: 'Invite User' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite User' });
  await invite.getByLabel(/^Email/).fill(email);
  await invite.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(`An invitation was sent to ${email}.`)).toBeVisible();
  const firstMail = await waitForMail({ to: email, subject: /invited to join/ });

  await searchFor(page, email);
  const row = table.getByRole('row').filter({ hasText: email });
  // No name yet: the address names the row and its menu.
  await expect(row.getByRole('cell').first()).toHaveText(email);
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Resend', 'Revoke']);
  await expectNoSeriousA11yViolations(page, 'pending invitation menu');
  await page.getByRole('menuitem', { name: 'Resend' }).click();
  await expect(page.getByText(`The invitation to ${email} was sent again.`)).toBeVisible();
  // A new message with a fresh link.
  const resent = await waitForMail({
    to: email,
    subject: /invited to join/,
    after: new Date(Date.parse(firstMail.receivedAt) + 1),
  });
  expect(findLink(resent, '/auth/signup?')).not.toBe(findLink(firstMail, '/auth/signup?'));

  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke invitation' });
  await expect(confirm).toContainText(`Revoke the invitation to ${email}? The link in their invitation email will stop working.`);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'revoke invitation confirmation');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`The invitation to ${email} was revoked.`)).toBeVisible();
  // Gone from the table at once; the search that now matches nobody says so in the spec's words.
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Nothing to show' })).toContainText('No users to display');
  await expect(page.getByText('Use the search bar to search for a user')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'org users with no match');
  await context.close();
});
