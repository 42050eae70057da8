import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { createSignedInAccount, idTokenOf, provisionMember } from './support/accounts';
import { SCENARIOS_URL, signIn, storedPayload, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/test';

/** Every test uses accounts (and an organisation) of its own: the demo accounts keep signing in with a password. */

/** Signs out through the organisation menu of the shell. */
async function signOut(page: Page, orgName = 'Riverside EMS Academy'): Promise<void> {
  await page.getByRole('button', { name: orgName }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
}

/** A new account accepts the license first, when the sign-in shows it. */
async function acceptLicenseIfAsked(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/auth\/(license|two-factor\/setup)\?|\/authoring\/cases/);
  if (!page.url().includes('/auth/license')) return;
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
}

/** Sets up an authenticator app in the open set-up (a dialog or the required set-up page); answers its key and recovery codes. */
async function setUpApp(page: Page, password: string, doneLabel: string): Promise<{ key: string; recoveryCodes: string[] }> {
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: /QR code to scan with your authenticator app/ })).toBeVisible();
  const key = ((await page.getByLabel('Setup key').textContent()) ?? '').trim();
  expect(key).toMatch(/^[A-Z2-7]+=*$/);
  await page.getByLabel(/^6-digit code/).fill(await generate({ secret: key }));
  await page.getByRole('button', { name: 'Verify' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes.first()).toBeVisible();
  const recoveryCodes = await codes.allTextContents();
  await expectNoSeriousA11yViolations(page, 'recovery codes');
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: doneLabel }).click();
  return { key, recoveryCodes };
}

test('an authenticator app set up in Account > Security is asked for after the password; a recovery code signs in once', async ({
  browser,
  request,
}) => {
  const page = await (await browser.newContext()).newPage();
  const person = await createSignedInAccount(page, request, { label: 'totp' });
  await page.goto('/auth/account/security');
  await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
  const app = page.getByRole('region', { name: /Authenticator app/ });
  await expect(app.getByText('Off', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'security');

  await app.getByRole('button', { name: 'Set up' }).click();
  await expect(page.getByRole('dialog', { name: 'Set up an authenticator app' })).toBeVisible();
  const { key, recoveryCodes } = await setUpApp(page, person.password, 'Done');
  await expect(page.getByText('Authenticator app set up.')).toBeVisible();
  await expect(app.getByText('On', { exact: true })).toBeVisible();
  await expect(app).toContainText(`${recoveryCodes.length} recovery codes left.`);

  // The password alone no longer signs in: the code of the app comes next.
  await signOut(page);
  await signIn(page, person.email, { password: person.password });
  await expect(page).toHaveURL(/\/auth\/login\/two-factor\?/);
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'two-step verification');
  await page.getByLabel(/^6-digit code/).fill(await generate({ secret: key }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
  expect((await storedPayload(page))?.amr).toEqual(expect.arrayContaining(['otp']));

  // A recovery code instead of the app's code, once.
  const [recoveryCode = ''] = recoveryCodes;
  const elsewhere = await (await browser.newContext()).newPage();
  await signIn(elsewhere, person.email, { password: person.password });
  await elsewhere.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await elsewhere.getByLabel(/^Recovery code/).fill(recoveryCode);
  await elsewhere.getByRole('button', { name: 'Verify' }).click();
  await expect(elsewhere).toHaveURL(SCENARIOS_URL);

  const again = await (await browser.newContext()).newPage();
  await signIn(again, person.email, { password: person.password });
  await again.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await again.getByLabel(/^Recovery code/).fill(recoveryCode);
  await again.getByRole('button', { name: 'Verify' }).click();
  await expect(again.getByText('That code is not valid. Check it and try again.')).toBeVisible();
  await expect(again).toHaveURL(/\/auth\/login\/two-factor\?/);
});

test('a passkey added in Account > Security signs in after the password', async ({ browser, request }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const person = await createSignedInAccount(page, request, { label: 'passkey' });
  await page.goto('/auth/account/security');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel(/^Passkey name/).fill('Test laptop');
  await expectNoSeriousA11yViolations(page, 'add a passkey');
  await dialog.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByText('Passkey “Test laptop” added.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByText('Test laptop')).toBeVisible();

  await signOut(page);
  await signIn(page, person.email, { password: person.password });
  await expect(page).toHaveURL(/\/auth\/login\/two-factor\?/);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
});

test('a role an organisation requires a second factor of sets one up at its next sign-in, before anything else', async ({
  browser,
  request,
}) => {
  // An organisation of its own: no demo organisation keeps the requirement for the specs after this one.
  const orgName = `E2E Two-Step ${Date.now() % 1_000_000}`;
  const created = await request.post('/api/users/invitations/invite', {
    headers: { Authorization: `Bearer ${await idTokenOf(request, 'super@demo.test')}` },
    data: { users: [{ email: uniqueEmail('two-step-owner') }], org: { name: orgName, productType: 'EMS', seats: 5 } },
  });
  expect(created.ok(), 'creating the organisation').toBe(true);
  const orgId = ((await created.json()) as Array<{ createdOrg: { _id: string } }>)[0]?.createdOrg._id ?? '';
  const student = await provisionMember(request, { orgId, role: 'STUDENT', label: 'two-step-student' });
  const orgAdmin = await provisionMember(request, { orgId, role: 'ADMIN', label: 'two-step-admin' });

  // An admin of the organisation (not its key owner) sets it in Org management > Security.
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, orgAdmin.email, { password: orgAdmin.password });
  await acceptLicenseIfAsked(admin);
  await expect(admin).toHaveURL(SCENARIOS_URL);
  await admin.goto('/auth/org/security');
  await expect(admin.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
  const section = admin.getByRole('region', { name: 'Second factor' });
  await section.getByRole('checkbox', { name: 'Student' }).check();
  await section.getByRole('button', { name: 'Save' }).click();
  const confirm = admin.getByRole('dialog', { name: 'Require a second factor' });
  await expect(confirm).toContainText(
    'Students of this organization without a second factor will have to set one up at their next sign-in.',
  );
  await expectNoSeriousA11yViolations(admin, 'require a second factor');
  await confirm.getByRole('button', { name: 'Require' }).click();
  await expect(admin.getByText('Second factor requirement saved.')).toBeVisible();

  const page = await (await browser.newContext()).newPage();
  await signIn(page, student.email, { password: student.password });
  await acceptLicenseIfAsked(page);
  await expect(page).toHaveURL(/\/auth\/two-factor\/setup\?/);
  await expect(page.getByText(`${orgName} requires a second step when you sign in`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'two-factor set-up');

  // Nothing else opens meanwhile: no ID token until a factor is set up.
  expect((await page.request.post('/api/users/auth/token')).status()).toBe(403);
  await page.goto('/auth/account/profile');
  await expect(page).toHaveURL(/\/auth\/login\?/);
  await page.goto('/auth/callback');
  await expect(page).toHaveURL(/\/auth\/two-factor\/setup\?/);

  await page.getByRole('button', { name: 'Use an authenticator app' }).click();
  await setUpApp(page, student.password, 'Continue');
  await expect(page).toHaveURL(SCENARIOS_URL);
});
