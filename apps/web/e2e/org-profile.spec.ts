import { expect, test } from '@playwright/test';
import { signIn } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

test('the key owner sees the organisation profile cards', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, 'owner@demo.test', { redirectUrl: '/auth/org/profile' });
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
