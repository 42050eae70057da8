import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf } from './support/accounts';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

// The Cases tool against this deployment, which the browser tests' server names 'dev'. Copies are
// covered by the server's case-copy tests between two real servers and by the screen's unit test:
// a copy here would add a case to the demo libraries the other browser tests read.

const CASES_PATH = '/auth/access/cases';

async function emsTemplates(request: APIRequestContext): Promise<{ id: string; name: string }[]> {
  const token = await idTokenOf(request, 'super@demo.test');
  const response = await request.post('/api/graphql', {
    headers: { authorization: `Bearer ${token}` },
    data: { query: '{ templateCases(productType: EMS) { id name } }' },
  });
  const reply = (await response.json()) as { data?: { templateCases: { id: string; name: string }[] } };
  const templates = reply.data?.templateCases ?? [];
  expect(templates.length).toBeGreaterThanOrEqual(2);
  return templates;
}

test('a super admin compares two cases: different, then one with itself', async ({ browser, request }) => {
  const [first, second] = await emsTemplates(request);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: CASES_PATH });
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Copy a case between organizations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Show difference between two cases' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'cases tool');

  // Two different cases, then one case with itself.
  const diff = page.getByRole('region', { name: 'Show difference between two cases' });
  await diff.getByLabel(/^First environment/).selectOption('dev');
  await diff.getByLabel(/^First case id/).fill(first!.id);
  await diff.getByLabel(/^Second environment/).selectOption('dev');
  await diff.getByLabel(/^Second case id/).fill(second!.id);
  await diff.getByRole('button', { name: 'Compare' }).click();
  await expect(diff.getByText('Case data is different')).toBeVisible();
  await expect(diff.getByText(first!.name).first()).toBeVisible();
  await expect(diff.getByText(second!.name).first()).toBeVisible();
  await diff.getByLabel(/^Second case id/).fill(first!.id);
  await diff.getByRole('button', { name: 'Compare' }).click();
  await expect(diff.getByText('No diff between those 2 cases. Their data are the same.')).toBeVisible();

  await context.close();
});

test('an admin is refused the Cases tool and its calls', async ({ browser, request }) => {
  const token = await idTokenOf(request, 'admin@demo.test');
  const response = await request.get('/api/cases/tool/environments', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(403);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: CASES_PATH });
  await expect(page).toHaveURL(/\/auth\/account\/profile$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Copy a case between organizations' })).toHaveCount(0);
  await context.close();
});
