import { readFile } from 'node:fs/promises';
import { expect, test } from './support/test';
import { idTokenOf, tokenClaimsOf } from './support/accounts';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

const GROUP_NAME = `Audit Night Shift ${Date.now() % 100000}`;

/** A local day as a date field takes it. */
const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

test.describe.configure({ timeout: 120_000 });

test('an organisation admin reads the trail by names, on one line a time, within a date range, and exports it', async ({
  page,
  request,
}) => {
  // A sub-group created and deleted through the API: its events must still show its name.
  const admin = await tokenClaimsOf(request, 'admin@demo.test');
  const token = await idTokenOf(request, 'admin@demo.test');
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/users/extension/groups', {
    headers,
    data: { name: GROUP_NAME, description: JSON.stringify({ parent: admin.org }) },
  });
  expect(created.ok()).toBe(true);
  const groupId = ((await created.json()) as { _id: string })._id;
  expect((await request.delete(`/api/users/extension/groups/${groupId}`, { headers })).ok()).toBe(true);

  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/audit' });
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  // The last 90 days at first.
  const today = new Date();
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  await expect(from).toHaveValue(localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 90)));
  await expect(to).toHaveValue(localDay(today));

  const deleted = page.getByRole('row').filter({ hasText: 'Deleted group' }).filter({ hasText: GROUP_NAME });
  await expect(deleted).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'Created group' }).filter({ hasText: GROUP_NAME })).toHaveCount(1);
  await expect(deleted).not.toContainText(groupId);
  // The time on one line: as tall as one line of the table's text.
  const time = deleted.locator('time');
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  const box = await time.boundingBox();
  const lineHeight = await time.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
  expect(box?.height).toBeLessThan(lineHeight * 1.5);
  await expectNoSeriousA11yViolations(page, 'Audit (organisation, by names)');

  // Every action has a readable label in the filter.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await expect(page.getByRole('option', { name: 'Answered effect chain update' })).toBeVisible();
  await expect(page.getByRole('option', { name: /case\.ec-update/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Deleted group' }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'Created group' })).toHaveCount(0);
  await expect(deleted).toHaveCount(1);

  // The CSV holds what the screen shows, named after the range.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  const firstDay = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 90));
  expect(download.suggestedFilename()).toBe(`audit-trail-${firstDay}-to-${localDay(today)}.csv`);
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Time (UTC),Actor,Actor email,Viewing as,Viewing as email,Action,Target type,Target,Organization,Reason');
  expect(lines.slice(1).every((line) => line.includes(',Deleted group,'))).toBe(true);
  expect(lines.some((line) => line.includes(`,Group,${GROUP_NAME},`))).toBe(true);

  // A range that ends before today's events leaves them out; a reversed one is explained, not sent.
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  await to.fill(localDay(yesterday));
  await expect(deleted).toHaveCount(0);
  await from.fill(localDay(today));
  await expect(page.getByText('The start date is after the end date.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await to.fill(localDay(today));
  await expect(deleted).toHaveCount(1);
  await expectNoSeriousA11yViolations(page, 'Audit (organisation, one day)');
});
