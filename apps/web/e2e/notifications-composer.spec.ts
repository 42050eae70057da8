import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './support/test';
import { createSignedInAccount } from './support/accounts';
import { DEMO_PASSWORD, signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

// Long round trips through several screens and two browsers, each checked with axe.
test.describe.configure({ timeout: 180_000 });

/** The titles of the pending notifications of an account, read through the API. */
async function pendingTitles(request: APIRequestContext, email: string): Promise<string[]> {
  expect((await request.post('/api/users/auth/sign-in', { data: { email, password: DEMO_PASSWORD } })).ok()).toBe(true);
  const token = (await (await request.post('/api/users/auth/token')).json()) as { idToken: string };
  const pending = await request.get('/api/users/notifications/pending', {
    headers: { authorization: `Bearer ${token.idToken}` },
  });
  expect(pending.ok()).toBe(true);
  const body = (await pending.json()) as { data: { notifications: Array<{ title: string }> } };
  return body.data.notifications.map((n) => n.title);
}

test('the target picker keeps its rules: all users, an organisation and a user exclude each other', async ({ page }) => {
  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/notifications' });
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'New Notification' })).toBeVisible();
  const send = page.getByRole('button', { name: 'Send' });
  const add = page.getByRole('button', { name: 'Add', exact: true });
  await expect(send).toBeDisabled();
  await expect(add).toBeDisabled();
  await expect(page.getByRole('radio', { name: 'Red' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Default Template' })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'Notifications (composer)');

  // The live preview is the popup itself; a colour that fails 4.5:1 on the black header is flagged.
  const preview = page.getByRole('region', { name: 'Preview' });
  await page.getByRole('textbox', { name: 'Header' }).fill('Skills night');
  await expect(preview.getByRole('heading', { name: 'Skills night' })).toBeVisible();
  await expect(preview.getByRole('button', { name: 'Remind Me at Next Login' })).toBeVisible();
  await page.getByRole('radio', { name: 'Indigo' }).check();
  await expect(page.getByRole('alert')).toContainText('Indigo reaches only 3.5:1 on the black popup header');
  await expectNoSeriousA11yViolations(page, 'Notifications (composer, preview in indigo)');
  await page.getByRole('radio', { name: 'Red' }).check();
  await page.getByRole('textbox', { name: 'Header' }).fill('');

  await page.getByRole('checkbox', { name: 'Everyone' }).first().check();
  await expect(page.getByRole('checkbox', { name: 'All students' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Organization' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'User' })).toBeDisabled();
  await expect(add).toBeEnabled();
  await page.getByRole('checkbox', { name: 'Everyone' }).first().uncheck();
  await page.getByRole('checkbox', { name: 'All students' }).check();
  await expect(page.getByRole('checkbox', { name: 'Everyone' }).first()).toBeDisabled();
  await add.click();
  await expect(page.getByRole('list', { name: 'Targets' }).getByText('All students', { exact: true })).toBeVisible();
  // Adding cleared the selection; 'Everyone' stays off next to a role already added.
  await expect(page.getByRole('checkbox', { name: 'All students' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Everyone' }).first()).toBeDisabled();

  await page.getByRole('textbox', { name: 'Header' }).fill('x'.repeat(30));
  await expect(page.getByRole('textbox', { name: 'Header' })).toHaveValue('x'.repeat(25));
  await page.getByRole('textbox', { name: 'Body' }).fill('Hello');
  await expect(send).toBeEnabled();
  await page.getByRole('radio', { name: 'Go To Link' }).check();
  await page.getByRole('textbox', { name: 'Link' }).fill('javascript:alert(1)');
  await send.click();
  await expect(page.getByText('Enter a path of this site or an http(s) address')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByRole('textbox', { name: 'Header' })).toHaveValue('');
  await expect(page.getByRole('list', { name: 'Targets' })).toHaveCount(0);
  await expect(send).toBeDisabled();
});

test('an announcement reaches the one targeted user and nobody else, and its read count follows', async ({
  browser,
  page,
  request,
}) => {
  const recipientContext = await browser.newContext();
  const recipientPage = await recipientContext.newPage();
  const recipient = await createSignedInAccount(recipientPage, request, { label: 'announced' });
  const title = `Drill ${Date.now() % 100000}`;

  await signInWithoutForm(page, 'super@demo.test', { redirectUrl: '/auth/access/notifications' });
  await expect(page.getByRole('heading', { name: 'New Notification' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Header' }).fill(title);
  await page.getByRole('textbox', { name: 'Body' }).fill('Meet at the ambulance bay at 9.');
  await page.getByRole('radio', { name: 'Teal' }).check();
  await page.getByRole('radio', { name: 'Go To Link' }).check();
  await page.getByRole('textbox', { name: 'Link' }).fill('/auth/account/profile');
  await page.getByRole('combobox', { name: 'User' }).fill(recipient.email.slice(0, 20));
  await page.getByRole('option', { name: new RegExp(`\\(${recipient.email.replace(/[.+]/g, '\\$&')}\\)$`) }).click();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Targets' })).toContainText(recipient.email);
  await expect(page.getByText('This notification goes to:')).toContainText(recipient.email);
  await page.getByRole('button', { name: 'Send' }).click();

  const sent = page.getByRole('dialog', { name: 'Notification Sent!' });
  await expect(sent).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Notification Sent! dialog');
  await sent.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('textbox', { name: 'Header' })).toHaveValue('');
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Read 0 of 1');

  // The recipient gets it as a popup; nobody else does.
  await recipientPage.goto('/auth/account/profile');
  const popup = recipientPage.getByRole('dialog', { name: title });
  await expect(popup).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Go to', exact: true })).toBeVisible();
  await popup.getByRole('button', { name: 'Go to my cases' }).click();
  await expect(recipientPage).toHaveURL(/\/authoring\/cases$/);
  for (const bystander of ['student@demo.test', 'instructor@demo.test', 'admin@demo.test', 'super@demo.test']) {
    expect(await pendingTitles(request, bystander), bystander).not.toContain(title);
  }

  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Read 1 of 1');
  await expectNoSeriousA11yViolations(page, 'Notifications (sent list)');
  await recipientContext.close();
});
