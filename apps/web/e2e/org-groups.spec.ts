import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

test('an admin creates a group, renames it, adds and removes a member, then deletes it', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const suffix = `${Date.now() % 1_000_000}`;
  const name = `E2E Group ${suffix}`;
  const renamed = `E2E Renamed ${suffix}`;

  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/groups' });
  await expect(page).toHaveURL(/\/auth\/org\/groups$/);
  const groups = page.getByRole('table', { name: 'Groups' });
  await expect(groups.getByRole('link', { name: 'Paramedic Cohort A' })).toBeVisible();
  // Testing groups are hidden until asked for.
  await expect(groups.getByRole('link', { name: 'QA Sandbox' })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Display Test Orgs' }).check();
  await expect(groups.getByRole('link', { name: 'QA Sandbox' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'org groups');

  await page.getByRole('button', { name: 'Create group' }).click();
  const create = page.getByRole('dialog', { name: 'Create group' });
  await expect(create.getByRole('button', { name: 'Create' })).toBeDisabled();
  await create.getByRole('textbox', { name: /Group name/ }).fill(name);
  await expectNoSeriousA11yViolations(page, 'create group dialog');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  await expect(groups.getByRole('link', { name })).toBeVisible();

  await page.getByRole('button', { name: `Rename ${name}` }).click();
  const rename = page.getByRole('dialog', { name: `Rename ${name}` });
  await rename.getByRole('textbox', { name: /Group name/ }).fill(renamed);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename).toBeHidden();
  await groups.getByRole('link', { name: renamed }).click();

  await expect(page).toHaveURL(/\/auth\/groups\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Group details' })).toBeVisible();
  const members = page.getByRole('table', { name: `Members of ${renamed}` });
  // The shared table's empty state sits under the table, as a status.
  const noMembers = page.getByRole('status').filter({ hasText: 'No users to display' });
  await expect(noMembers).toBeVisible();
  await page.getByRole('combobox', { name: 'Add a member of the organization' }).fill('student2');
  await page.getByRole('option', { name: /student2@demo\.test/ }).click();
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(members.getByText('student2@demo.test')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'group details');

  await members.getByRole('button', { name: /^Remove .* from the group$/ }).click();
  const confirmRemoval = page.getByRole('dialog', { name: 'Remove member' });
  await confirmRemoval.getByRole('button', { name: 'Remove' }).click();
  await expect(noMembers).toBeVisible();

  await page.getByRole('link', { name: 'Back to groups' }).click();
  await page.getByRole('button', { name: `Remove ${renamed}` }).click();
  const confirmDelete = page.getByRole('dialog', { name: 'Remove group' });
  await expect(confirmDelete).toContainText(renamed);
  await confirmDelete.getByRole('button', { name: 'Remove' }).click();
  await expect(groups.getByRole('link', { name: renamed })).toHaveCount(0);
  await context.close();
});
