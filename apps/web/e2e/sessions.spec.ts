import { createSignedInAccount } from './support/accounts';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/test';

test('a person signed in on two browsers sees both sessions and signs the other out; that browser is refused on its next request', async ({
  browser,
  request,
}) => {
  const laptop = await (await browser.newContext()).newPage();
  const person = await createSignedInAccount(laptop, request, { label: 'sessions' });
  const phone = await (await browser.newContext()).newPage();
  await signInWithoutForm(phone, person.email, { password: person.password, redirectUrl: '/auth/account/profile' });
  await expect(phone.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  await laptop.goto('/auth/account/profile');
  await laptop.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Sessions' }).click();
  await expect(laptop).toHaveURL(/\/auth\/account\/sessions$/);
  await expect(laptop.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  const table = laptop.getByRole('table', { name: 'Signed-in devices' });
  // The header row and one row a browser.
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByText('This device')).toHaveCount(1);
  await expectNoSeriousA11yViolations(laptop, 'sessions');

  await table.getByRole('button', { name: /^Sign out / }).click();
  await expect(laptop.getByText(/^Signed out .+\.$/)).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(laptop.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();

  // The other browser's next request is refused, and its cookie renews no token.
  const refusal = phone.waitForResponse((response) => response.url().includes('/api/users/') && response.status() === 401);
  await phone.goto('/auth/account/sessions');
  expect(await (await refusal).json()).toMatchObject({ statusCode: 401, code: 'SESSION_ENDED' });
  await expect(phone).toHaveURL(/\/auth\/login/);
  expect((await phone.request.post('/api/users/auth/token')).status()).toBe(401);
  // The laptop's own session is untouched.
  await laptop.reload();
  await expect(laptop.getByRole('table', { name: 'Signed-in devices' }).getByText('This device')).toBeVisible();
});

test('sign out everywhere else asks first, and the list is a card list on a phone', async ({ browser, request }) => {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const person = await createSignedInAccount(phone, request, { label: 'sessions-phone' });
  for (const label of ['second', 'third']) {
    const other = await (await browser.newContext()).newPage();
    await signInWithoutForm(other, person.email, { password: person.password, redirectUrl: '/auth/account/profile' });
    await expect(other.getByRole('heading', { level: 1, name: 'Profile' }), label).toBeVisible();
  }

  await phone.goto('/auth/account/sessions');
  const cards = phone.getByRole('list', { name: 'Signed-in devices' });
  await expect(cards.getByRole('listitem')).toHaveCount(3);
  await expectNoSeriousA11yViolations(phone, 'sessions on a phone');

  await phone.getByRole('button', { name: 'Sign out everywhere else' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Sign out everywhere else' });
  await expect(dialog).toContainText('2 other devices');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await expect(phone.getByText('Signed out 2 other devices.')).toBeVisible();
  await expect(cards.getByRole('listitem')).toHaveCount(1);
});

test("an admin signs a member out everywhere from the users table; the member's browser is refused on its next request", async ({
  browser,
  request,
}) => {
  const memberPage = await (await browser.newContext()).newPage();
  const member = await createSignedInAccount(memberPage, request, {
    label: 'signed-out-member',
    orgOwnerEmail: 'owner@demo.test',
  });

  const admin = await (await browser.newContext()).newPage();
  await signInWithoutForm(admin, 'owner@demo.test', { redirectUrl: '/auth/org/invite' });
  await expect(admin.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await admin.getByRole('searchbox', { name: 'Search users' }).fill(member.email);
  const row = admin.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: member.email });
  await row.getByRole('button', { name: `Actions for ${member.givenName} ${member.familyName}` }).click();
  await admin.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Sign out everywhere' });
  await expect(dialog).toContainText(`Sign ${member.givenName} ${member.familyName} out of PatientSim on every device?`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await expect(admin.getByText(`${member.givenName} ${member.familyName} was signed out everywhere.`)).toBeVisible();

  const refusal = memberPage.waitForResponse((response) => response.url().includes('/api/users/') && response.status() === 401);
  await memberPage.goto('/auth/account/profile');
  expect(await (await refusal).json()).toMatchObject({ statusCode: 401, code: 'SESSION_ENDED' });
  await expect(memberPage).toHaveURL(/\/auth\/login/);
  expect((await memberPage.request.post('/api/users/auth/token')).status()).toBe(401);
});
