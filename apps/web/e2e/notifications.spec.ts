import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

// student2@demo.test has three unread popup notifications. The tests run in this order: the first
// leaves them unread ('Remind Me at Next Login'), the second reads them through the carousel.
test.describe.configure({ mode: 'serial' });

const SLIDES = ['Welcome to PatientSim', 'New: Pediatric cases', 'Skills check on Friday'] as const;

function notificationItem(page: Page, title: string) {
  return page.getByRole('listitem').filter({ has: page.getByText(title, { exact: true }) });
}

test("'Remind Me at Next Login' closes the carousel, keeps it away, and leaves the slides unread", async ({ page }) => {
  await signInWithoutForm(page, 'student2@demo.test', { redirectUrl: '/auth/account/profile' });
  const dialog = page.getByRole('dialog', { name: SLIDES[0] });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Show me more' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'popup notification');

  await dialog.getByRole('button', { name: 'Remind Me at Next Login' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.disablePopupNotifications)).toBe('true');

  // The shown slide is unread again, and the popups stay away until the next login.
  await expect(notificationItem(page, SLIDES[0])).toContainText('· Unread');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(notificationItem(page, SLIDES[2])).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  for (const title of SLIDES) await expect(notificationItem(page, title)).toContainText('· Unread');
});

test('the carousel shows the unread popups once, marks them read, and ends at the cases', async ({ page }) => {
  await signInWithoutForm(page, 'student2@demo.test', { redirectUrl: '/auth/account/profile' });

  const first = page.getByRole('dialog', { name: SLIDES[0] });
  await expect(first).toBeVisible();
  await first.getByRole('button', { name: 'Show me more' }).click();

  const second = page.getByRole('dialog', { name: SLIDES[1] });
  await expect(second).toBeVisible();
  const image = second.getByRole('img', { name: SLIDES[1] });
  await expect(image).toBeVisible();
  expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page, 'popup notification (image)');
  await second.getByRole('button', { name: 'Next', exact: true }).click();

  const third = page.getByRole('dialog', { name: SLIDES[2] });
  await expect(third).toBeVisible();
  await expect(third.getByRole('button', { name: 'Go to', exact: true })).toBeVisible();
  // The scenario library is a page of this app: the router goes there, the page does not load again.
  await page.evaluate(() => {
    (window as Window & { stillTheSamePage?: boolean }).stillTheSamePage = true;
  });
  await third.getByRole('button', { name: 'Go to my cases' }).click();
  await expect(page).toHaveURL(/\/authoring\/cases$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Scenarios' })).toBeVisible();
  expect(await page.evaluate(() => (window as Window & { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);

  // Read now: the list says so, and the carousel does not come back.
  await page.goto('/auth/account/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  for (const title of SLIDES) await expect(notificationItem(page, title)).toContainText('· Read');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'notifications list');
});

test('the notifications list marks one unread, and the carousel then shows just that one', async ({ page }) => {
  // The carousel shows the popups as the app first read them: marked unread after that read, the
  // slide waits for the next load of the app.
  const popupsRead = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/users/notifications/pending');
  await signInWithoutForm(page, 'student2@demo.test', { redirectUrl: '/auth/account/profile' });
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await popupsRead;
  const item = notificationItem(page, SLIDES[2]);
  await item.getByRole('button', { name: /^Mark as unread/ }).click();
  await expect(item).toContainText('· Unread');

  await page.reload();
  const dialog = page.getByRole('dialog', { name: SLIDES[2] });
  await expect(dialog).toBeVisible();
  // One slide is also the last: it leads to the cases. Its own action opens the case.
  await expect(dialog.getByRole('button', { name: 'Go to my cases' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Go to', exact: true }).click();
  await expect(page).toHaveURL(/\/authoring\/cases\?caseId=/);
});
