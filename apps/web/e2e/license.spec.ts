import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { SCENARIOS_URL, signIn } from './support/auth';

test('the license agreement PDF is served', async ({ request }) => {
  const response = await request.get('/auth/EULA.pdf');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/pdf');
  expect((await response.body()).subarray(0, 5).toString()).toBe('%PDF-');
});

test('a user who has not accepted the license must agree before going on', async ({ page }) => {
  await signIn(page, 'nolicense@demo.test');
  await expect(page).toHaveURL(/\/auth\/license\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('token')).toBeTruthy();
  expect(url.searchParams.get('next')).toMatch(/^\/auth\/callback/);

  await expect(page.getByRole('heading', { name: 'License agreement' })).toBeVisible();
  await expect(page.getByTitle('License agreement (PDF)')).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'license');

  await page.getByLabel('I do not agree with the license agreement').check();
  await expect(next).toBeDisabled();
  await page.getByLabel('I agree with the license agreement').check();
  await expect(next).toBeEnabled();
  await next.click();

  await expect(page).toHaveURL(SCENARIOS_URL);
});
