import { type Locator } from '@playwright/test';
import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not rendered');
  return box;
}

test('the View As reason label overlaps neither what is typed in it nor the field above', async ({ page }) => {
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/skeleton' });
  await expect(page.getByRole('heading', { level: 1, name: 'View As User' })).toBeVisible();
  await page.getByLabel('Organization').fill('Rive');
  await page.getByRole('option', { name: 'Riverside EMS Academy' }).click();
  const userField = page.getByRole('combobox', { name: 'User' });
  await userField.fill('instructor@');
  await page.getByRole('option', { name: /\(instructor@demo\.test\)$/ }).click();
  const reason = page.getByRole('textbox', { name: 'Reason (optional)' });
  await reason.fill('Checking the cohort the instructor asked about');
  await page.locator('form').screenshot({ path: test.info().outputPath('view-as-form.png') });
  const label = await boxOf(page.locator('label').filter({ hasText: 'Reason (optional)' }));
  const text = await boxOf(reason);
  const above = await boxOf(userField);
  expect(label.y + label.height, 'label bottom against the reason text').toBeLessThanOrEqual(text.y);
  expect(label.y, 'label top against the User field').toBeGreaterThanOrEqual(above.y + above.height);
  await expectNoSeriousA11yViolations(page, 'View As User with a reason');
});

test('rows with and without an actions menu are equally tall', async ({ page }) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/invite' });
  const table = page.getByRole('table', { name: 'Users' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const withMenu = rows.filter({ has: page.getByRole('button', { name: /^Actions for / }) });
  const withoutMenu = rows.filter({ hasNot: page.getByRole('button', { name: /^Actions for / }) });
  await expect(withMenu.first()).toBeVisible();
  await expect(withoutMenu.first()).toBeVisible();
  // Whole pixels: the layout may put a row a fraction of a pixel off, which nobody sees.
  const heights = await rows.evaluateAll((elements) => elements.map((row) => Math.round(row.getBoundingClientRect().height)));
  expect(new Set(heights).size, `row heights ${heights.join(', ')}`).toBe(1);
});
