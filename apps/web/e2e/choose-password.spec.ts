import { PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { expect, test } from './support/test';
import { provisionPerson, tokenClaimsOf } from './support/accounts';
import { SCENARIOS_URL, storedPayload } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

test("choose-password without a token says 'Error: Missing token'", async ({ page }) => {
  await page.goto('/auth/choose-password');
  await expect(page.getByRole('alert')).toHaveText('Error: Missing token');
  await expectNoSeriousA11yViolations(page, 'choose password (missing token)');
});

test('a provisioned person sees their details read-only, chooses a password and is signed in', async ({ page, request }) => {
  // The integration provisions into the provider organisation (super@demo.test's).
  const { org } = await tokenClaimsOf(request, 'super@demo.test');
  if (!org) throw new Error('super@demo.test has no organisation');
  const person = await provisionPerson(request, {
    orgId: org,
    label: 'provisioned',
    givenName: 'Priya',
    familyName: 'Provisioned',
  });

  await page.goto(person.link);
  await expect(page.getByRole('heading', { name: 'Choose password' })).toBeVisible();
  for (const [label, value] of [
    ['Email', person.email],
    ['First name', 'Priya'],
    ['Last name', 'Provisioned'],
  ] as const) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveValue(value);
    await expect(field).not.toBeEditable();
  }
  await expectNoSeriousA11yViolations(page, 'choose password');

  await page.getByLabel(/^Password/).fill('weakpassword');
  await page.getByLabel(/^Confirm password/).fill('weakpassword');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Password is too weak')).toBeVisible();
  await expect(page.getByText(PASSWORD_POLICY_TEXT).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'choose password (weak)');

  await page.getByLabel(/^Password/).fill('Chosen-Pass-2026');
  await page.getByLabel(/^Confirm password/).fill('Chosen-Pass-2026');
  await page.getByRole('button', { name: 'Set password' }).click();

  // A new account: the callback sends it to the license first, then on to the scenarios.
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
  const payload = await storedPayload(page);
  expect(payload?.email).toBe(person.email);
  expect(payload?.org).toBe(org);

  // The link is single-use.
  await page.goto(person.link);
  await expect(page.getByRole('alert')).toHaveText('This link is invalid, expired or already used.');
});
