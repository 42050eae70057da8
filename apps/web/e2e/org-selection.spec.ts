import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { SCENARIOS_URL, signIn } from './support/auth';

test('a user of two organisations picks one, then signs in with it', async ({ page }) => {
  await signIn(page, 'multi@demo.test');
  await expect(page).toHaveURL(/\/auth\/org-selection$/);
  await expect(page.getByRole('heading', { name: 'Select an organization' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'org selection');

  // The nav bar's compact org menu offers Logout.
  await page.getByRole('banner').getByRole('button').click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  await page.keyboard.press('Escape');

  const organisation = page.getByLabel('Organization');
  expect(await organisation.locator('option').allTextContents()).toEqual(
    expect.arrayContaining(['Riverside EMS Academy', 'Northgate Nursing School']),
  );
  await organisation.selectOption({ label: 'Northgate Nursing School' });
  await page.getByRole('button', { name: 'Sign in with Northgate Nursing School' }).click();

  await expect(page).toHaveURL(SCENARIOS_URL);
  const activeGroups = await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.activeGroupsData);
  expect(activeGroups).toContain('Northgate Nursing School');
  expect(activeGroups).not.toContain('Riverside EMS Academy');
});

test('a user of two organisations switches from the header menu and stays on the same page', async ({ page }) => {
  await signIn(page, 'multi@demo.test');
  await expect(page).toHaveURL(/\/auth\/org-selection$/);
  await page.getByLabel('Organization').selectOption({ label: 'Northgate Nursing School' });
  await page.getByRole('button', { name: 'Sign in with Northgate Nursing School' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);

  await page.goto('/auth/org/invite');
  const main = page.getByRole('main');
  const users = main.getByRole('table', { name: 'Users' });
  await expect(main.getByText(/^Organization:/)).toHaveText('Organization: Northgate Nursing School');
  // Northgate's key owner: a member of that organisation only.
  await expect(users.getByRole('cell', { name: 'nurse@demo.test' })).toBeVisible();

  // Keyboard only: open the header menu, move to the other organisation, choose it.
  const menuButton = page.getByRole('banner').getByRole('button', { name: 'Northgate Nursing School' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitemradio', { name: 'Northgate Nursing School' })).toHaveAttribute('aria-checked', 'true');
  await expectNoSeriousA11yViolations(page, 'organisation menu');
  const riverside = menu.getByRole('menuitemradio', { name: 'Riverside EMS Academy' });
  await riverside.focus();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('banner').getByRole('button', { name: 'Riverside EMS Academy' })).toBeVisible();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL(/\/auth\/org\/invite$/);
  await expect(main.getByText(/^Organization:/)).toHaveText('Organization: Riverside EMS Academy');
  await expect(users.getByRole('cell', { name: 'multi@demo.test' })).toBeVisible();
  await expect(users.getByRole('cell', { name: 'nurse@demo.test' })).toHaveCount(0);
  const activeGroups = await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.activeGroupsData);
  expect(activeGroups).toContain('Riverside EMS Academy');
  expect(activeGroups).not.toContain('Northgate Nursing School');
});
