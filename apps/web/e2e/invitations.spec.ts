import { expect, test } from './support/test';
import { signInWithoutForm, storedPayload } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

// instructor@demo.test is the demo account with a pending invitation (to Northgate Nursing School);
// accepting it is what this spec is about, so it runs once per server.
test("a pending invitation shows on the profile and as the '!' badge; accepting it joins the organisation", async ({ page }) => {
  await signInWithoutForm(page, 'instructor@demo.test', { redirectUrl: '/auth/account/profile' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const account = nav.getByRole('link', { name: /^ACCOUNT/ });
  await expect(account).toContainText('!');
  await expect(account).toHaveAccessibleName(/pending invitation/);

  const invitations = page.getByRole('region', { name: 'Pending invitations' });
  await expect(invitations.getByText('Northgate Nursing School')).toBeVisible();
  await expect(
    page.getByText(
      'You have a pending invitation to instructor@demo.test. Please follow the link in your invite email to accept it.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You are currently a member of 1 organization(s)' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'profile (pending invitation)');

  // Dismiss asks first; cancelling keeps the invitation.
  await invitations.getByRole('button', { name: 'Dismiss' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(
    'Dismissing this invitation will remove your ability to access this Organization’s case data. You will need to be re-invited by the account administrator if you wish to gain access.',
  );
  await expectNoSeriousA11yViolations(page, 'profile (dismiss invitation)');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  await invitations.getByRole('button', { name: 'Accept' }).click();

  // Finished, organisation changed, session renewed, page reloaded: Northgate is now the active one.
  await expect(page.getByRole('banner').getByRole('button', { name: 'Northgate Nursing School' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You are currently a member of 2 organization(s)' })).toBeVisible();
  await expect(invitations.getByText('You have no pending invitations.')).toBeVisible();
  await expect(account).not.toContainText('!');
  const payload = await storedPayload(page);
  expect((payload?.app_metadata as { activeOrg?: string } | undefined)?.activeOrg).toBe(payload?.org);
  expect(payload?.groupsData).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'Northgate Nursing School', parent: null })]),
  );
});
