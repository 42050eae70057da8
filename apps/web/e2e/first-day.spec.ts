import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf } from './support/accounts';
import { expectNoSeriousA11yViolations } from './support/axe';
import { SCENARIOS_URL, signInWithoutForm, uniqueEmail } from './support/auth';
import { findLink, waitForMail } from './support/mail';

/**
 * A self-signed-up person's first day (decisions 9 and 18, spec section 1): with no organisation,
 * /authoring/cases says what to do next (their invitations with Accept, how to be invited, how to
 * reach the provider) and lists the published scenarios of their account type's public content
 * organisation, which they open. The demo's Nursing public scenarios are copies of the Nursing
 * templates, all published but 'Pediatric Dehydration'. The e2e servers leave SUPPORT_EMAIL and
 * MAIL_FROM unset: the provider's address is MAIL_FROM's default.
 */

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
const PROVIDER_ADDRESS = 'no-reply@localhost';
const PUBLIC_NURSING = ['Post-Operative Sepsis on the Surgical Ward', 'Insulin Infusion Titration', 'Heart Failure Exacerbation'];

/** Plain sign-up with `accountType` through to the scenarios (e-mail, link, names and password, license). */
async function signUpAlone(page: Page, accountType: 'EMS' | 'NURSING', label: string): Promise<string> {
  const email = uniqueEmail(label);
  const sent = await page.request.post('/api/users/invitations/invite-unaffiliated', { data: { email, accountType } });
  expect(sent.ok()).toBe(true);
  await page.goto(findLink(await waitForMail({ to: email }), '/auth/signup?'));
  await page.getByLabel(/^First name/).fill('Fran');
  await page.getByLabel(/^Last name/).fill('First');
  await page.getByLabel(/^Password/).fill('First-Day-Pass-2026');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL, { timeout: 30_000 });
  return email;
}

/** The public scenarios' region: a table on wide screens, a list of cards on phones. */
const publicSection = (page: Page) => page.getByRole('region', { name: 'Public Nursing scenarios' });

for (const viewport of VIEWPORTS) {
  test(`a self-signed-up Nursing account at ${viewport.width}x${viewport.height}: what to do next, and the public Nursing scenarios to open`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const email = await signUpAlone(page, 'NURSING', `first-day-${viewport.width}`);

    await expect(page.getByRole('heading', { level: 1, name: 'Scenarios' })).toBeVisible();
    const next = page.getByRole('region', { name: 'What to do next' });
    await expect(next).toContainText('You are not a member of any organization yet.');
    await expect(next).toContainText(`ask your organization's administrator or instructor to invite ${email}`);
    await expect(next.getByRole('link', { name: PROVIDER_ADDRESS })).toHaveAttribute('href', `mailto:${PROVIDER_ADDRESS}`);
    await expect(page.getByRole('region', { name: 'Pending invitations' })).toContainText('You have no pending invitations.');

    // The account type chosen at sign-up gives the library: Nursing's public scenarios, published only.
    const section = publicSection(page);
    await expect(section).toContainText('Your account type is Nursing');
    await expect(section.getByText('Showing 4 of 4 scenarios')).toBeVisible({ timeout: 30_000 });
    for (const name of PUBLIC_NURSING) await expect(section.getByRole('button', { name, exact: true })).toBeVisible();
    await expect(section.getByRole('button', { name: 'Pediatric Dehydration', exact: true })).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Chest Pain at the Gym', exact: true })).toHaveCount(0);
    // Read-only: no favourites, filters or update choices.
    await expect(section.getByRole('button', { name: /^Favorite / })).toHaveCount(0);
    await expect(section.getByRole('group', { name: 'Filters' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `first day (${viewport.width})`);

    await section.getByRole('button', { name: 'Insulin Infusion Titration', exact: true }).click();
    const preview = page.getByRole('dialog', { name: 'Insulin Infusion Titration' });
    await expect(preview).toBeVisible();
    await expectNoSeriousA11yViolations(page, `first day, a public scenario open (${viewport.width})`);
    await page.keyboard.press('Escape');
    await expect(preview).toBeHidden();
  });
}

test('a self-signed-up account accepts a pending invitation from its first page and lands in the organisation', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const email = await signUpAlone(page, 'EMS', 'first-day-invited');
  await expect(page.getByRole('region', { name: 'Public Emergency scenarios' })).toBeVisible();

  // The provider invites the person into a new organisation of its own (spec 7, `org` = a description).
  const orgName = `E2E First Day ${Date.now() % 1_000_000}`;
  const invited = await request.post('/api/users/invitations/invite', {
    headers: { Authorization: `Bearer ${await idTokenOf(request, 'super@demo.test')}` },
    data: { users: [{ email, role: 'STUDENT' }], org: { name: orgName, productType: 'EMS', seats: 5 } },
  });
  expect(invited.ok(), 'inviting the new account').toBe(true);

  await page.reload();
  const invitations = page.getByRole('region', { name: 'Pending invitations' });
  await expect(invitations.getByText(orgName)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'first day with an invitation');
  await invitations.getByRole('button', { name: 'Accept' }).click();

  await expect(page).toHaveURL(SCENARIOS_URL);
  await expect(page.getByRole('region', { name: 'What to do next' })).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SCENARIOS' })).toBeVisible();
});

test('an account removed from its only organisation gets the same first page', async ({ page }) => {
  await signInWithoutForm(page, 'removed@demo.test');
  await expect(page).toHaveURL(SCENARIOS_URL);
  await expect(page.getByRole('region', { name: 'What to do next' })).toContainText(
    'You are not a member of any organization yet.',
  );
  await expect(
    page.getByRole('region', { name: 'Public Emergency scenarios' }).getByText(/^Showing \d+ of \d+ scenarios$/),
  ).toBeVisible({
    timeout: 30_000,
  });
});
