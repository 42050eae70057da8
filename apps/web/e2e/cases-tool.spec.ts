import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf } from './support/accounts';
import { signInWithoutForm, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

// The Cases tool against this deployment, which the browser tests' server names 'dev'; the other
// environments are not configured here. Copies between two real servers, media included, are
// covered by the server's case-copy tests. A copy here goes into an organisation of its own, so the
// demo libraries the other browser tests read stay as they are.

const CASES_PATH = '/auth/access/cases';

async function emsTemplates(request: APIRequestContext, token: string): Promise<{ id: string; name: string }[]> {
  const response = await request.post('/api/graphql', {
    headers: { authorization: `Bearer ${token}` },
    data: { query: '{ templateCases(productType: EMS) { id name } }' },
  });
  const reply = (await response.json()) as { data?: { templateCases: { id: string; name: string }[] } };
  const templates = reply.data?.templateCases ?? [];
  expect(templates.length).toBeGreaterThanOrEqual(2);
  return templates;
}

/** An option of a case picker: the case's name, its organisation and its id (names repeat across libraries). */
const caseOption = (id: string) => new RegExp(`· ${id}$`);

test('a super admin sees every environment, compares two cases picked by name, then one with itself', async ({
  browser,
  request,
}) => {
  const token = await idTokenOf(request, 'super@demo.test');
  const [first, second] = await emsTemplates(request, token);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: CASES_PATH });
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Copy a case between organizations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Show difference between two cases' })).toBeVisible();
  const environments = page.getByRole('region', { name: 'Environments' });
  await expect(environments.getByRole('listitem')).toHaveText([
    /^dev\s*This deployment$/,
    /^stable\s*Not configured: add "stable"/,
    /^staging\s*Not configured: add "staging"/,
    /^app\s*Not configured: add "app"/,
  ]);
  await expectNoSeriousA11yViolations(page, 'cases tool');

  const diff = page.getByRole('region', { name: 'Show difference between two cases' });
  await diff.getByLabel(/^First environment/).selectOption('dev');
  await diff.getByLabel(/^First case/).fill(first!.name);
  await page.getByRole('option', { name: caseOption(first!.id) }).click();
  await diff.getByLabel(/^Second environment/).selectOption('dev');
  await diff.getByLabel(/^Second case/).fill(second!.name);
  await page.getByRole('option', { name: caseOption(second!.id) }).click();
  await diff.getByRole('button', { name: 'Compare' }).click();
  await expect(diff.getByText('Case data is different')).toBeVisible();
  // Removed lines (the first case's) come before added ones.
  const changed = diff.getByRole('cell').filter({ hasText: /^[-+] / });
  await expect(changed.first()).toHaveText(/^- /);
  await expect(diff.getByText(first!.name).first()).toBeVisible();
  await expect(diff.getByText(second!.name).first()).toBeVisible();

  await diff.getByLabel(/^Second case/).fill(first!.name);
  await page.getByRole('option', { name: caseOption(first!.id) }).click();
  await diff.getByRole('button', { name: 'Compare' }).click();
  await expect(diff.getByText('No diff between those 2 cases. Their data are the same.')).toBeVisible();

  await context.close();
});

test('a super admin copies a case by name into an organisation picked by name, then compares it with its copy', async ({
  browser,
  request,
}) => {
  const token = await idTokenOf(request, 'super@demo.test');
  const [template] = await emsTemplates(request, token);
  const orgName = `E2E Copy Target ${Date.now() % 1_000_000}`;
  const created = await request.post('/api/users/invitations/invite', {
    headers: { Authorization: `Bearer ${token}` },
    data: { users: [{ email: uniqueEmail('copy-target') }], org: { name: orgName, productType: 'EMS', seats: 3 } },
  });
  expect(created.ok(), 'creating the organisation').toBe(true);

  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: CASES_PATH });
  const copy = page.getByRole('region', { name: 'Copy a case between organizations' });
  await expect(copy).toBeVisible({ timeout: 30_000 });
  await copy.getByLabel(/^Source environment/).selectOption('dev');
  await copy.getByLabel(/^Cases to copy/).fill(template!.name);
  await page.getByRole('option', { name: caseOption(template!.id) }).click();
  await copy.getByLabel(/^Target environment/).selectOption('dev');
  await copy.getByLabel(/^Target organization/).fill(orgName);
  await page.getByRole('option', { name: orgName }).click();
  await copy.getByRole('button', { name: 'Copy' }).click();
  await expect(copy.getByText('Cases successfully copied')).toBeVisible({ timeout: 30_000 });

  const copied = copy.getByRole('list', { name: 'Copied cases' });
  const line = (await copied.getByText(/new case id/).textContent()) ?? '';
  const newId = /new case id (\S+) in dev/.exec(line)?.[1] ?? '';
  expect(newId).not.toBe('');
  await expect(copy.getByText(`${template!.name}: copied as ${newId}`)).toBeVisible();
  await copied.getByRole('button', { name: `Compare ${template!.name} with its copy` }).click();
  await expect(copied.getByText('No diff between those 2 cases. Their data are the same.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'cases tool after a copy');

  // Every picture the copy shows is served.
  const compared = await request.post('/api/cases/tool/diff', {
    headers: { authorization: `Bearer ${token}` },
    data: { envA: 'dev', idA: template!.id, envB: 'dev', idB: newId },
  });
  const { mediaB } = (await compared.json()) as { mediaB: Record<string, unknown> };
  expect(Object.keys(mediaB).length).toBeGreaterThan(0);
  for (const url of Object.keys(mediaB)) {
    expect((await request.get(url)).status(), url).toBe(200);
  }
  await context.close();
});

test('an admin is refused the Cases tool and its calls', async ({ browser, request }) => {
  const token = await idTokenOf(request, 'admin@demo.test');
  for (const url of ['/api/cases/tool/environments', '/api/cases/tool/cases?env=dev&q=chest']) {
    const response = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status(), url).toBe(403);
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: CASES_PATH });
  await expect(page).toHaveURL(/\/auth\/account\/profile$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Copy a case between organizations' })).toHaveCount(0);
  await context.close();
});
