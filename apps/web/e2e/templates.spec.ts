import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { idTokenOf } from './support/accounts';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

const TEMPLATES_PATH = '/auth/access/templates';
const PROFILE_URL = /\/auth\/account\/profile$/;
const TABS = [
  { label: 'EMS', productType: 'EMS' },
  { label: 'Nursing', productType: 'NURSING' },
  { label: 'Military', productType: 'MILITARY' },
] as const;

type Template = { id: string; name: string; published: boolean; applab: boolean };

/** The case API as a caller sees it (POST /api/graphql with their bearer token). */
async function graphql(request: APIRequestContext, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await request.post('/api/graphql', {
    headers: { authorization: `Bearer ${token}` },
    data: { query, variables },
  });
  return (await response.json()) as {
    data: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

async function templatesOf(request: APIRequestContext, token: string, productType: string): Promise<Template[]> {
  const reply = await graphql(
    request,
    token,
    'query($p: ProductType!) { templateCases(productType: $p) { id name published applab } }',
    { p: productType },
  );
  expect(reply.errors, 'templateCases').toBeUndefined();
  return (reply.data?.templateCases ?? []) as Template[];
}

/** The scenario names of a tab's table, top to bottom. */
async function listedNames(page: Page, label: string): Promise<string[]> {
  const table = page.getByRole('table', { name: `${label} templates` });
  await expect(table.getByRole('row').nth(1).getByRole('button')).toBeVisible();
  return table.getByRole('row').locator('td:first-child').allInnerTexts();
}

/** Clicks a table checkbox and confirms the dialog it opens. */
async function toggleAndConfirm(page: Page, checkbox: string, dialogTitle: string) {
  await page.getByRole('checkbox', { name: checkbox }).click();
  const dialog = page.getByRole('dialog', { name: dialogTitle });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: dialogTitle }).click();
  await expect(dialog).toBeHidden();
}

/** A super admin's page on the Templates screen (a tab's address when given), and their token for the API. */
async function openTemplates(browser: Browser, request: APIRequestContext, path = TEMPLATES_PATH) {
  const token = await idTokenOf(request, 'super@demo.test');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: path });
  // Sign-in, the callback and the screen's first load in one wait: generous for a loaded machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible({ timeout: 30_000 });
  return { context, page, token };
}

test('a super admin sees each template library sorted by name, with the preview', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { context, page, token } = await openTemplates(browser, request);
  await expect(page.getByRole('tab')).toHaveText(['EMS', 'Nursing', 'Military']);

  // Each tab: the template organisation's cases, sorted by name; no search or filters.
  for (const tab of TABS) {
    await page.getByRole('tab', { name: tab.label }).click();
    await expect(page.getByRole('tab', { name: tab.label })).toHaveAttribute('aria-selected', 'true');
    const expected = (await templatesOf(request, token, tab.productType)).map((c) => c.name);
    expect(expected.length, `${tab.label} templates in the demo data`).toBeGreaterThanOrEqual(4);
    const names = await listedNames(page, tab.label);
    expect(names).toEqual([...expected].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    await expect(page.getByRole('searchbox')).toHaveCount(0);
    await expect(page.getByRole('table', { name: `${tab.label} templates` }).getByRole('columnheader')).toHaveText([
      'Scenario Name',
      'Avatar',
      'Published',
      'AppLab',
    ]);
  }

  // The preview of the first EMS template.
  await page.getByRole('tab', { name: 'EMS' }).click();
  const [emsFirst] = await listedNames(page, 'EMS');
  if (!emsFirst) throw new Error('No EMS template');
  const preview = page.getByRole('region', { name: `Preview of ${emsFirst}` });
  await expect(preview).toBeVisible();
  await expect(preview.getByRole('img', { name: /^Scene 1: / })).toBeVisible();
  await expect(preview.getByRole('heading', { name: 'Learning objectives' })).toBeVisible();
  await expect(preview.getByRole('heading', { name: 'Scenario information' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'templates');
  await context.close();
});

test('the preview leaves out a chief complaint its author hides, and cuts learning objectives at 20 words', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  type Text = { caption: { en: string }; displayed: boolean } | null;
  type Listed = { name: string; dispatch: { learningObjectives: Text; chiefComplaint: Text } | null };
  const hidden: { complaint?: string } = {};
  const objectives = Array.from({ length: 25 }, (_, index) => `objective${index + 1}`).join(' ');
  const { context, page } = await openTemplates(browser, request, `${TEMPLATES_PATH}?tab=military`);
  // The demo templates all show their texts: the first Military template's author is made to hide
  // its chief complaint, and to write long learning objectives, on the way to the page.
  await page.route('**/api/graphql', async (route) => {
    if (!route.request().postData()?.includes('templateCases')) return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as { data: { templateCases: Listed[] } };
    const [first] = [...body.data.templateCases].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
    if (first?.dispatch?.chiefComplaint) {
      hidden.complaint = first.dispatch.chiefComplaint.caption.en;
      first.dispatch = {
        learningObjectives: { caption: { en: objectives }, displayed: true },
        chiefComplaint: { ...first.dispatch.chiefComplaint, displayed: false },
      };
    }
    return route.fulfill({ response, json: body });
  });
  await page.reload();
  const [militaryFirst] = await listedNames(page, 'Military');
  if (!militaryFirst) throw new Error('No Military template');
  const preview = page.getByRole('region', { name: `Preview of ${militaryFirst}` });
  await expect(preview).toBeVisible();
  const { complaint } = hidden;
  if (!complaint) throw new Error(`${militaryFirst} has no chief complaint in the demo data`);
  await expect(preview.getByRole('heading', { name: 'Learning objectives' })).toBeVisible();
  const cut = `${objectives.split(' ').slice(0, 20).join(' ')}…`;
  await expect(preview.getByText(cut, { exact: true })).toBeVisible();
  await expect(preview.getByText('objective21')).toHaveCount(0);
  await expect(preview.getByRole('heading', { name: 'Scenario information' })).toHaveCount(0);
  await expect(preview.getByText(complaint)).toHaveCount(0);
  await context.close();
});

test('publishing and withdrawing a template is confirmed and persists after a reload', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { context, page, token } = await openTemplates(browser, request);
  const [emsFirst] = await listedNames(page, 'EMS');
  if (!emsFirst) throw new Error('No EMS template');
  const before = (await templatesOf(request, token, 'EMS')).find((c) => c.name === emsFirst);
  if (!before) throw new Error(`No template named ${emsFirst}`);

  const publishTitle = before.published ? 'Remove From Templates' : 'Add To Templates';
  await page.getByRole('checkbox', { name: `Published: ${emsFirst}` }).click();
  const dialog = page.getByRole('dialog', { name: publishTitle });
  await expect(dialog).toContainText('Every customer is affected');
  await expectNoSeriousA11yViolations(page, 'templates confirmation');
  await dialog.getByRole('button', { name: publishTitle }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  const published = page.getByRole('checkbox', { name: `Published: ${emsFirst}` });
  if (before.published) await expect(published).not.toBeChecked();
  else await expect(published).toBeChecked();
  expect((await templatesOf(request, token, 'EMS')).find((c) => c.id === before.id)?.published).toBe(!before.published);

  // And back, through the preview's button (which restores the demo data for the specs after this one).
  const backTitle = before.published ? 'Add To Templates' : 'Remove From Templates';
  await page
    .getByRole('region', { name: `Preview of ${emsFirst}` })
    .getByRole('button', { name: backTitle })
    .click();
  await page.getByRole('dialog', { name: backTitle }).getByRole('button', { name: backTitle }).click();
  await expect(page.getByRole('dialog', { name: backTitle })).toBeHidden();
  await page.reload();
  if (before.published) await expect(published).toBeChecked();
  else await expect(published).not.toBeChecked();
  await context.close();
});

test('App Lab availability is confirmed and persists after a reload, on the tab the address names', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { context, page, token } = await openTemplates(browser, request, `${TEMPLATES_PATH}?tab=nursing`);
  await expect(page.getByRole('tab', { name: 'Nursing' })).toHaveAttribute('aria-selected', 'true');
  const [nursingFirst] = await listedNames(page, 'Nursing');
  if (!nursingFirst) throw new Error('No Nursing template');
  const before = (await templatesOf(request, token, 'NURSING')).find((c) => c.name === nursingFirst);
  if (!before) throw new Error(`No template named ${nursingFirst}`);

  const appLabTitle = before.applab ? 'Remove From All App Lab Users' : 'Make Available To App Lab Users';
  await toggleAndConfirm(page, `AppLab: ${nursingFirst}`, appLabTitle);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Nursing' })).toHaveAttribute('aria-selected', 'true');
  const appLab = page.getByRole('checkbox', { name: `AppLab: ${nursingFirst}` });
  if (before.applab) await expect(appLab).not.toBeChecked();
  else await expect(appLab).toBeChecked();
  expect((await templatesOf(request, token, 'NURSING')).find((c) => c.id === before.id)?.applab).toBe(!before.applab);

  // Restore the demo data for the specs after this one.
  const restoreTitle = before.applab ? 'Make Available To App Lab Users' : 'Remove From All App Lab Users';
  await toggleAndConfirm(page, `AppLab: ${nursingFirst}`, restoreTitle);
  await page.reload();
  if (before.applab) await expect(appLab).toBeChecked();
  else await expect(appLab).not.toBeChecked();
  await context.close();
});

test('an admin is refused the Templates screen and the template calls', async ({ browser, request }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: TEMPLATES_PATH });
  await expect(page).toHaveURL(PROFILE_URL);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  // Opened again once signed in: still the profile.
  await page.goto(TEMPLATES_PATH);
  await expect(page).toHaveURL(PROFILE_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toHaveCount(0);
  await context.close();

  const token = await idTokenOf(request, 'admin@demo.test');
  const listing = await graphql(request, token, '{ templateCases(productType: EMS) { id } }');
  expect(listing.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  const superToken = await idTokenOf(request, 'super@demo.test');
  const [anyTemplate] = await templatesOf(request, superToken, 'EMS');
  if (!anyTemplate) throw new Error('No EMS template');
  const publishing = await graphql(request, token, 'mutation($id: ID!) { publishTemplate(id: $id, published: true) { id } }', {
    id: anyTemplate.id,
  });
  expect(publishing.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});

test('a student is refused the template listing with the spec text', async ({ request }) => {
  const token = await idTokenOf(request, 'student@demo.test');
  const listing = await graphql(request, token, '{ caseConfigurations(filters: { template: true }) { totalCount } }');
  expect(listing.errors?.[0]?.message).toBe('Student cannot retrieve this info');
});
