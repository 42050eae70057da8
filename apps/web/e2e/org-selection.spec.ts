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
