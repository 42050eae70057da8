import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';

test('a student is logged out after 20 minutes without activity', async ({ page }) => {
  await page.clock.install();
  await signInWithoutForm(page, 'student@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  await page.clock.fastForward('18:00');
  await expect(page).toHaveURL(/\/auth\/account\/profile$/);
  await page.clock.fastForward('02:01');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('/auth/manage-users and /auth/manage-users/invite lead to org management', async ({ page }) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/manage-users' });
  await expect(page).toHaveURL(/\/auth\/org\/invite$/);
  await page.goto('/auth/manage-users/invite');
  await expect(page).toHaveURL(/\/auth\/org\/invite$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
});
