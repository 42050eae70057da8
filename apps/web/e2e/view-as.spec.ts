import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf, tokenClaimsOf } from './support/accounts';
import { signInWithoutForm, storedPayload } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

const SKELETON_URL = /\/auth\/access\/skeleton$/;
const PROFILE_URL = /\/auth\/account\/profile$/;
const REASON = `Checking the cohort the instructor asked about (${Date.now() % 100000})`;

// Long round trips through several screens, each checked with axe.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** The name of the organisation `email` works in now (another spec may have moved them by an invitation). */
async function activeOrganisationName(request: APIRequestContext, email: string): Promise<string> {
  const claims = await tokenClaimsOf(request, email);
  const token = await idTokenOf(request, email);
  const groups = await request.get(`/api/users/extension/users/${claims.sub}/groups`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(groups.ok()).toBe(true);
  const active = ((await groups.json()) as { _id: string; name: string }[]).find((group) => group._id === claims.org);
  if (!active) throw new Error(`${email} has no active organisation`);
  return active.name;
}

test('a super admin views the product as an instructor and comes back, and both ends are in the audit trail', async ({
  page,
  request,
}) => {
  // The view shows the person's own active organisation, whichever organisation they were found in.
  const activeOrg = await activeOrganisationName(request, 'instructor@demo.test');
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/skeleton' });
  await expect(page).toHaveURL(SKELETON_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'View As User' })).toBeVisible();
  const loginAs = page.getByRole('button', { name: 'Login As' });
  await expect(loginAs).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'View As User');

  await page.getByLabel('Organization').fill('Rive');
  await page.getByRole('option', { name: 'Riverside EMS Academy' }).click();
  await expect(loginAs).toBeDisabled();
  await page.getByLabel('User').fill('instructor@');
  await page.getByRole('option', { name: /\(instructor@demo\.test\)$/ }).click();
  await page.getByLabel('Reason (optional)').fill(REASON);
  await expect(loginAs).toBeEnabled();
  await loginAs.click();

  // The profile opens as the instructor, with a banner naming whose view this is.
  await expect(page).toHaveURL(PROFILE_URL);
  const banner = page.getByRole('status').filter({ hasText: 'You are viewing PatientSim as' });
  await expect(banner).toContainText(`(instructor@demo.test) in ${activeOrg}`);
  await expect(page.getByText('Signed in as', { exact: false })).toContainText('instructor@demo.test');
  const viewed = await storedPayload(page);
  expect(viewed).toMatchObject({ email: 'instructor@demo.test', role: 'USER' });
  expect((viewed?.act as { sub: string }).sub).toBeTruthy();
  expect(
    await page.evaluate(() => JSON.parse(window.localStorage.getItem('patientsim.auth.result') ?? '{}').fromSkeletonKey),
  ).toBe(true);
  await expectNoSeriousA11yViolations(page, 'profile while viewing as a user');

  // The view changes nothing: the server refuses the save, and the profile says why.
  await page.getByLabel(/^First name/).fill('Changed');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Nothing can be changed while viewing PatientSim as another user.')).toBeVisible();

  // The banner stays on every screen; the provider's tools are out of the instructor's reach.
  await page.goto('/auth/org/groups');
  await expect(banner).toBeVisible();
  await page.goto('/auth/access');
  await expect(page).toHaveURL(PROFILE_URL);

  await banner.getByRole('button', { name: 'End session' }).click();
  await expect(page).toHaveURL(SKELETON_URL);
  await expect(page.getByRole('status').filter({ hasText: 'You are viewing PatientSim as' })).toHaveCount(0);
  expect(await storedPayload(page)).toMatchObject({ email: 'super@demo.test', role: 'SUPER_ADMIN' });
  expect((await storedPayload(page))?.act).toBeUndefined();

  // The audit trail shows both ends, with who, whose view, where and why.
  await page.goto('/auth/access/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'View As User started' }).click();
  // The menu fades out: axe must not judge its items halfway.
  await expect(page.getByRole('listbox')).toHaveCount(0);
  const started = page.getByRole('row').filter({ hasText: REASON }).first();
  await expect(started).toContainText('super@demo.test');
  await expect(started).toContainText('Riverside EMS Academy');
  await expect(started).toContainText('View As User started');
  await expectNoSeriousA11yViolations(page, 'Audit (provider)');
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'View As User ended' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'View As User ended' }).first()).toContainText('super@demo.test');
});

test("an organisation admin reads their organisation's audit trail, View As included, from org management", async ({ page }) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org' });
  await expect(page).toHaveURL(/\/auth\/org\/invite$/);
  await page.getByRole('link', { name: 'Audit' }).click();
  await expect(page).toHaveURL(/\/auth\/org\/audit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: REASON }).first()).toContainText('View As User started');
  // One organisation's trail: no organisation column, no organisation filter.
  await expect(page.getByRole('columnheader', { name: 'Organization' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'Audit (organisation)');
});

test('an instructor has no audit trail', async ({ page }) => {
  await signInWithoutForm(page, 'instructor@demo.test', { redirectUrl: '/auth/org/audit' });
  await expect(page).toHaveURL(PROFILE_URL);
});

test('viewing as a user is offered to super admins only', async ({ page }) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/access/skeleton' });
  await expect(page).toHaveURL(/\/auth\/org\/invite$|\/auth\/account\/profile$/);
  const refused = await page.evaluate(async () => {
    const result = JSON.parse(window.localStorage.getItem('patientsim.auth.result') ?? '{}') as { idToken: string };
    const response = await fetch('/api/users/auth/loginAs', {
      method: 'POST',
      headers: { authorization: `Bearer ${result.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orgId: 'x', email: 'student@demo.test' }),
    });
    return response.status;
  });
  expect(refused).toBe(403);
});
