import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

const CATEGORIES = ['Scenario Builder', 'Scenario Select', 'Scenario Logic', 'Org Management'] as const;

test('an admin opens the video tutorials: four categories, the first open, each video served', async ({ page }) => {
  await signInWithoutForm(page, 'admin@demo.test', { redirectUrl: '/auth/org/groups' });
  await expect(page).toHaveURL(/\/auth\/org\/groups$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();

  const opener = page.getByRole('button', { name: 'Video Tutorials' });
  await opener.click();
  const drawer = page.getByRole('dialog', { name: 'Video Tutorials' });
  await expect(drawer).toBeVisible();

  const categories = drawer.getByRole('heading', { level: 3 });
  await expect(categories).toHaveText([...CATEGORIES]);
  await expect(drawer.getByRole('button', { name: CATEGORIES[0] })).toHaveAttribute('aria-expanded', 'true');
  for (const label of CATEGORIES.slice(1)) {
    await expect(drawer.getByRole('button', { name: label })).toHaveAttribute('aria-expanded', 'false');
  }

  // The demo's first EMS scenario builder tutorial, with its visible title and an embedded player.
  const builder = drawer.getByRole('region', { name: CATEGORIES[0] });
  await expect(builder.getByText('Building your first scenario', { exact: true })).toBeVisible();
  const video = builder.getByLabel('Building your first scenario', { exact: true });
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('preload', 'none');
  const source = await video.getAttribute('src');
  expect(source).toMatch(/^\/media\/[^/]+$/);
  const media = await page.request.get(source ?? '');
  expect(media.status()).toBe(200);
  expect(media.headers()['content-type']).toContain('video/');

  // The player is reachable from the keyboard.
  await video.focus();
  await expect(video).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'video tutorials drawer');

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await page.getByRole('dialog', { name: 'Video Tutorials' }).getByRole('button', { name: 'Close video tutorials' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a student is not offered the video tutorials', async ({ page }) => {
  await signInWithoutForm(page, 'student@demo.test', { redirectUrl: '/auth/org/groups' });
  // The org area is not the student's: the guard sends them to the profile.
  await expect(page).toHaveURL(/\/auth\/account\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Video Tutorials' })).toHaveCount(0);
});
