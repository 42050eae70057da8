import { PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { expect, test } from './support/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { uniqueEmail } from './support/auth';
import { findLink, waitForMail } from './support/mail';

const INVITATION_SENT =
  'An invitation has been sent to the specified email. Check your email and follow the instructions within.';

test.describe('sign-up', () => {
  test('plain variant: e-mail and account type, then an e-mailed link to the invite variant', async ({ page }) => {
    const email = uniqueEmail('plain');
    await page.goto('/auth/signup');
    await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
    await expect(page.getByLabel(/^First name/)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'sign-up');

    await page.getByLabel(/^Email/).fill(email.toUpperCase());
    await page.getByLabel(/^Account type/).selectOption({ label: 'Nursing' });
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText(INVITATION_SENT)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'sign-up (sent)');

    const link = new URL(findLink(await waitForMail({ to: email }), '/auth/signup?'));
    expect(link.searchParams.get('email')).toBe(email);
    expect(link.searchParams.get('token')).toBeTruthy();
  });

  test('plain variant for an address with a pending invitation answers as for any other; the reminder goes by e-mail', async ({
    page,
  }) => {
    const asked = new Date();
    await page.goto('/auth/signup');
    await page.getByLabel(/^Email/).fill('invitee@demo.test');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText(INVITATION_SENT)).toBeVisible();
    const reminder = await waitForMail({ to: 'invitee@demo.test', after: asked, subject: /pending invitation/ });
    expect(reminder.text).toContain(
      'You have a pending invitation to invitee@demo.test. Please follow the link in your invite email to accept it.',
    );
  });

  test('invite variant: names and password, no account type; a weak password is refused', async ({ page }) => {
    const email = uniqueEmail('invite');
    const sent = await page.request.post('/api/users/invitations/invite-unaffiliated', {
      data: { email, accountType: 'EMS' },
    });
    expect(sent.ok()).toBe(true);
    const link = findLink(await waitForMail({ to: email }), '/auth/signup?');

    await page.goto(link);
    await expect(page.getByLabel(/^First name/)).toBeVisible();
    await expect(page.getByLabel(/^Last name/)).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toBeVisible();
    await expect(page.getByLabel(/^Account type/)).toHaveCount(0);
    await expect(page.getByLabel(/^Email/)).toHaveValue(email);
    await expectNoSeriousA11yViolations(page, 'sign-up (invite)');

    await page.getByLabel(/^First name/).fill('Ivy');
    await page.getByLabel(/^Last name/).fill('Invitee');
    await page.getByLabel(/^Password/).fill('weakpassword');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Password is too weak')).toBeVisible();
    await expect(page.getByText(PASSWORD_POLICY_TEXT)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'sign-up (weak password)');
  });

  test('invite variant without a token: the account is created unverified and must verify its address', async ({ page }) => {
    const email = uniqueEmail('no-token');
    await page.goto(`/auth/signup?email=${encodeURIComponent(email)}`);
    await expect(page.getByLabel(/^Account type/)).toHaveCount(0);
    await page.getByLabel(/^First name/).fill('Nora');
    await page.getByLabel(/^Last name/).fill('Token');
    await page.getByLabel(/^Password/).fill('No-Token-Pass-2026');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('status')).toHaveText('Verification email sent');
    await expectNoSeriousA11yViolations(page, 'sign-up (verification sent)');

    const link = findLink(await waitForMail({ to: email }), '/api/auth/verify-email');
    await page.goto(link);
    await expect(page.getByText('Your email address has been verified. Redirecting to login...')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
  });

  test('invite variant with a bad link says the invitation is not usable', async ({ page }) => {
    await page.goto('/auth/signup?email=nobody%40example.test&token=not-a-real-invitation-token');
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toHaveCount(0);
  });
});
