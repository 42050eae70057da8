import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf, provisionMember } from './support/accounts';
import { signInWithoutForm, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

const ORG_PROFILE_URL = /\/auth\/org\/profile$/;
const ORG_INVITE_URL = /\/auth\/org\/invite$/;

type FreshOrganisation = {
  orgId: string;
  name: string;
  keyOwner: { email: string; password: string };
  otherAdmin: { email: string; givenName: string; familyName: string };
};

/**
 * A new organisation of its own, so that a test may rename it or hand it over without touching the
 * demo organisations the other specs rely on: the provider creates it with an invitation (spec 7,
 * `org` = a new organisation's description), two admins are provisioned into it, and the provider
 * names the first its key owner.
 */
async function createOrganisation(request: APIRequestContext, label: string): Promise<FreshOrganisation> {
  const providerToken = await idTokenOf(request, 'super@demo.test');
  const authorization = { Authorization: `Bearer ${providerToken}` };
  const name = `E2E ${label} ${Date.now() % 1_000_000}`;
  // The server keeps addresses lowercased.
  const emailLabel = label.toLowerCase();
  const created = await request.post('/api/users/invitations/invite', {
    headers: authorization,
    data: { users: [{ email: uniqueEmail(`${emailLabel}-first`), role: 'ADMIN' }], org: { name, productType: 'EMS', seats: 5 } },
  });
  expect(created.ok(), 'creating the organisation').toBe(true);
  const [result] = (await created.json()) as { createdOrg: { _id: string } | null }[];
  const orgId = result?.createdOrg?._id;
  if (!orgId) throw new Error('The invitation created no organisation.');

  const keyOwner = await provisionMember(request, {
    orgId,
    role: 'ADMIN',
    label: `${emailLabel}-owner`,
    givenName: 'Kim',
    familyName: 'Keyholder',
  });
  const otherAdmin = await provisionMember(request, {
    orgId,
    role: 'ADMIN',
    label: `${emailLabel}-next`,
    givenName: 'Noor',
    familyName: 'Successor',
  });
  // Their license is not accepted yet (no token): the provider looks the new admin up instead.
  const found = await request.get(`/api/users/extension/groups/${encodeURIComponent(orgId)}/member-search`, {
    headers: authorization,
    params: { term: keyOwner.email, role: 'ADMIN' },
  });
  expect(found.ok(), 'finding the key owner').toBe(true);
  const keyOwnerId = ((await found.json()) as { users: { user_id: string }[] }).users[0]?.user_id;
  const named = await request.patch(`/api/users/extension/groups/${encodeURIComponent(orgId)}`, {
    headers: authorization,
    data: { ownerId: keyOwnerId },
  });
  expect(named.ok(), 'naming the key owner').toBe(true);
  return { orgId, name, keyOwner, otherAdmin };
}

/** Signs in a provisioned account (its license not yet accepted) and lands on `redirectUrl`. */
async function signInFirstTime(page: Page, account: { email: string; password: string }, redirectUrl: string) {
  await signInWithoutForm(page, account.email, { password: account.password, redirectUrl });
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
}

test('the key owner sees the organisation profile cards', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'owner@demo.test', { redirectUrl: '/auth/org/profile' });
  await expect(page).toHaveURL(/\/auth\/org\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Org. Profile' })).toBeVisible();
  const info = page.getByRole('region', { name: 'Organization' });
  await expect(info.getByRole('textbox', { name: /Name/ })).toHaveValue('Riverside EMS Academy');
  await expect(info.getByText('Emergency')).toBeVisible();
  await expect(info.getByText('Active', { exact: true })).toBeVisible();
  const seats = page.getByRole('region', { name: 'Seats' });
  await expect(seats.getByRole('img', { name: /of 25 seats used$/ })).toBeVisible();
  // Seats, product type and status are the provider's.
  await expect(page.getByRole('button', { name: 'Change Status' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Seats' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'org profile');
  await context.close();
});

test('the key owner renames and describes the organisation, and both stay after a reload', async ({ browser, request }) => {
  const org = await createOrganisation(request, 'Rename');
  const renamed = `${org.name} Renamed`;
  const about = 'Paramedic programme, evening cohort';
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInFirstTime(page, org.keyOwner, '/auth/org/profile');
  await expect(page).toHaveURL(ORG_PROFILE_URL);
  const info = page.getByRole('region', { name: 'Organization' });
  const name = info.getByRole('textbox', { name: /Name/ });
  await expect(name).toHaveValue(org.name);
  await expect(info.getByText('Kim Keyholder (you)')).toBeVisible();
  // Two provisioned admins hold seats; the first invitation, still pending, keeps one (decision 0035).
  await expect(page.getByRole('region', { name: 'Seats' }).getByRole('img', { name: '3 of 5 seats used' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'org profile (new organisation)');

  const save = info.getByRole('button', { name: 'Save profile' });
  await expect(save).toBeDisabled();
  await name.fill(renamed);
  await info.getByRole('textbox', { name: 'Description' }).fill(about);
  const saved = page.waitForResponse(
    (response) => response.url().endsWith(`/api/users/extension/groups/${org.orgId}`) && response.request().method() === 'PATCH',
  );
  await save.click();
  expect((await saved).ok()).toBe(true);
  // Saved: the form holds the organisation's name again, so there is nothing left to save; the
  // renewed session carries the new name to the nav bar too.
  await expect(save).toBeDisabled();
  await expect(name).toHaveValue(renamed);
  await expect(page.getByRole('banner')).toContainText(renamed);
  await expect(info.getByRole('alert')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'org profile (renamed)');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Org. Profile' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Organization' }).getByRole('textbox', { name: /Name/ })).toHaveValue(renamed);
  await expect(page.getByRole('region', { name: 'Organization' }).getByRole('textbox', { name: 'Description' })).toHaveValue(
    about,
  );
  // The organisation itself has the new name, not only this page.
  const providerToken = await idTokenOf(request, 'super@demo.test');
  const stored = await request.get(`/api/users/extension/groups/${encodeURIComponent(org.orgId)}`, {
    headers: { Authorization: `Bearer ${providerToken}` },
  });
  const group = (await stored.json()) as { name: string; description: string };
  expect(group.name).toBe(renamed);
  expect((JSON.parse(group.description) as { about?: string }).about).toBe(about);
  await context.close();
});

test('an admin who is not the key owner is sent from the org profile to the invite-users route', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/profile' });
  await expect(page).toHaveURL(ORG_INVITE_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Org management' }).getByRole('link', { name: 'Org. Profile' })).toHaveCount(
    0,
  );
  await expectNoSeriousA11yViolations(page, 'org users (redirected from the org profile)');

  await page.goto('/auth/org/profile');
  await expect(page).toHaveURL(ORG_INVITE_URL);
  await context.close();
});

test('an unauthenticated visitor opening the org profile is sent to login', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/auth/org/profile');
  await expect(page).toHaveURL(/\/auth\/login\?redirectUrl=%2Fauth%2Forg%2Fprofile$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'login (redirected from the org profile)');
  await context.close();
});

test("the provider, key owner of its own organisation, gets the provider's controls on its profile", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/org/profile' });
  await expect(page).toHaveURL(ORG_PROFILE_URL);
  const info = page.getByRole('region', { name: 'Organization' });
  await expect(info.getByRole('textbox', { name: /Name/ })).toHaveValue('PatientSim Provider');
  await expect(info.getByRole('combobox', { name: 'Product type' })).toBeVisible();
  await expect(info.getByRole('button', { name: 'Change Status' })).toBeVisible();
  const seats = page.getByRole('region', { name: 'Seats' });
  await expect(seats.getByRole('img', { name: /of 100 seats used$/ })).toBeVisible();
  await expect(seats.getByRole('textbox', { name: 'Seats' })).toHaveValue('100');
  await expectNoSeriousA11yViolations(page, 'org profile (provider)');

  // The status change asks first; cancelled, nothing changes (other specs use this organisation).
  await info.getByRole('button', { name: 'Change Status' }).click();
  const confirm = page.getByRole('dialog', { name: 'Change Status' });
  await expect(confirm).toContainText('Make PatientSim Provider Inactive? Inactive organizations have no access to cases.');
  await expectNoSeriousA11yViolations(page, 'change status confirmation');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(info.getByText('Active', { exact: true })).toBeVisible();
  await context.close();
});

test('the key owner hands the organisation over to another admin and loses its profile', async ({ browser, request }) => {
  const org = await createOrganisation(request, 'Handover');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInFirstTime(page, org.keyOwner, '/auth/org/profile');
  await expect(page).toHaveURL(ORG_PROFILE_URL);
  const orgMenu = page.getByRole('navigation', { name: 'Org management' });
  await expect(orgMenu.getByRole('link', { name: 'Org. Profile' })).toBeVisible();

  await page.getByRole('region', { name: 'Organization' }).getByRole('button', { name: 'Change Group Admin' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Group Admin' });
  await dialog.getByRole('combobox', { name: /New Group Admin/ }).fill('Successor');
  await page.getByRole('option', { name: new RegExp(org.otherAdmin.email.replace(/[.+]/g, '\\$&')) }).click();
  await expectNoSeriousA11yViolations(page, 'change group admin');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog).toContainText('Changing the Group Admin will prevent you from further editing this group');
  await expect(dialog).toContainText(`New Group Admin: Noor Successor (${org.otherAdmin.email})`);
  await expectNoSeriousA11yViolations(page, 'change group admin confirmation');

  const renewal = page.waitForResponse(
    (response) => response.url().endsWith('/api/users/auth/token') && response.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Change Group Admin' }).click();
  // The session is renewed after the change (spec section 4), and the profile is no longer theirs.
  expect((await renewal).ok()).toBe(true);
  await expect(page).toHaveURL(ORG_INVITE_URL);
  await expect(dialog).toBeHidden();
  await expect(orgMenu.getByRole('link', { name: 'Org. Profile' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'ORG MANAGEMENT' })).toHaveAttribute(
    'href',
    '/auth/org/invite',
  );
  await expectNoSeriousA11yViolations(page, 'org users (former key owner)');

  await page.goto('/auth/org/profile');
  await expect(page).toHaveURL(ORG_INVITE_URL);
  await expect(orgMenu.getByRole('link', { name: 'Org. Profile' })).toHaveCount(0);

  const providerToken = await idTokenOf(request, 'super@demo.test');
  const keyOwner = await request.get(`/api/users/extension/groups/${encodeURIComponent(org.orgId)}/key-owner`, {
    headers: { Authorization: `Bearer ${providerToken}` },
  });
  expect(((await keyOwner.json()) as { email: string }).email).toBe(org.otherAdmin.email);
  await context.close();
});
