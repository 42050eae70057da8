import { expect, test } from './support/test';
import { idTokenOf, provisionMember, tokenClaimsOf } from './support/accounts';
import { SCENARIOS_URL, signIn, uniqueEmail } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';
import { findLink, waitForMail } from './support/mail';

test('without a token the page says the link is incomplete', async ({ page }) => {
  await page.goto('/auth/reclaim-email');
  await expect(page.getByRole('heading', { name: 'Take your account back' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('This link is incomplete. Open it from your email again.');
  await expectNoSeriousA11yViolations(page, 'take your account back (no token)');
});

test("an admin moves a student to another address; the old address's link takes the account back", async ({ page, request }) => {
  // A student of Riverside EMS Academy alone, and the academy's (non-owner) admin.
  const { org } = await tokenClaimsOf(request, 'owner@demo.test');
  if (!org) throw new Error('owner@demo.test has no organisation');
  const member = await provisionMember(request, { orgId: org, label: 'reclaim' });
  const authorization = { authorization: `Bearer ${await idTokenOf(request, 'admin@demo.test')}` };
  const search = await request.get(`/api/users/search/users?term=${encodeURIComponent(member.email)}&orgId=${org}`, {
    headers: authorization,
  });
  const { users } = (await search.json()) as { users: Array<{ user_id: string; email: string }> };
  const memberId = users.find((user) => user.email === member.email)?.user_id;
  if (!memberId) throw new Error('the new member was not found');

  const changedAt = new Date();
  const movedTo = uniqueEmail('moved-away');
  const change = await request.patch(`/api/users/users/${memberId}?orgId=${org}`, {
    headers: authorization,
    data: { email: movedTo },
  });
  expect(change.ok(), 'the admin changes the address').toBe(true);

  const notice = await waitForMail({ to: member.email, after: changedAt, subject: /email address was changed/ });
  expect(notice.text).toContain('An admin of Riverside EMS Academy');
  await page.goto(findLink(notice, '/auth/reclaim-email?'));
  await expect(page.getByRole('heading', { name: 'Take your account back' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'take your account back');

  await page.getByRole('button', { name: 'Take my account back' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Your account is back at ${member.email} and has been signed out everywhere. Choose a new password to finish.`,
  );
  await expectNoSeriousA11yViolations(page, 'take your account back (new password)');
  await page.getByLabel(/^New password/).fill('Taken-Back-2026');
  await page.getByLabel(/^Confirm new password/).fill('Taken-Back-2026');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();

  // The link works once.
  await page.goto(findLink(notice, '/auth/reclaim-email?'));
  await page.getByRole('button', { name: 'Take my account back' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link is invalid, was already used or has expired.');
  await expectNoSeriousA11yViolations(page, 'take your account back (used link)');

  // The old address and the new password sign in (a provisioned account accepts the license first).
  await signIn(page, member.email, { password: 'Taken-Back-2026' });
  await expect(page).toHaveURL(/\/auth\/license\?/);
  await page.getByLabel('I agree with the license agreement').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(SCENARIOS_URL);
});
