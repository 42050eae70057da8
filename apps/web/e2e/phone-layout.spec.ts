import { type Browser, type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signInWithoutForm } from './support/auth';
import { expectNoSeriousA11yViolations } from './support/axe';

const PHONE = { width: 390, height: 844 };
/** The narrowest screen content must reflow to without scrolling sideways (WCAG 1.4.10). */
const NARROW = { width: 320, height: 640 };
const DESKTOP = { width: 1440, height: 900 };

async function openAs(browser: Browser, email: string, path: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInWithoutForm(page, email, { redirectUrl: path });
  return { context, page };
}

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(widths.scrollWidth, 'the page is no wider than the screen').toBeLessThanOrEqual(widths.clientWidth);
}

/** Every button scrolled to lies on the screen, and the page never scrolled sideways to show it. */
async function expectEachInViewWhenScrolledTo(buttons: Locator) {
  const all = await buttons.all();
  expect(all.length, 'rows with actions').toBeGreaterThan(0);
  const page = buttons.first().page();
  const width = page.viewportSize()?.width ?? 0;
  for (const button of all) {
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box?.x ?? -1, 'left edge on the screen').toBeGreaterThanOrEqual(0);
    expect((box?.x ?? width) + (box?.width ?? 0), 'right edge on the screen').toBeLessThanOrEqual(width);
    // Scrolled to the bottom edge, a button may sit a fraction of a pixel below it.
    await expect(button).toBeInViewport({ ratio: 0.95 });
  }
  expect(await page.evaluate(() => window.scrollX)).toBe(0);
}

/** At least 44 px each way (UX guide: touch targets on phones). */
async function expectTouchSize(button: Locator) {
  const box = await button.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
}

async function expectFillsTheScreen(dialog: Locator, viewport: { width: number; height: number }) {
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box).not.toBeNull();
  expect(Math.round(box?.x ?? -1)).toBe(0);
  expect(Math.round(box?.y ?? -1)).toBe(0);
  expect(Math.round(box?.width ?? 0)).toBe(viewport.width);
  expect(Math.round(box?.height ?? 0)).toBe(viewport.height);
}

test('on a phone the org users table is a list of cards with each row menu on screen, and its dialogs fill the screen', async ({
  browser,
}) => {
  const { context, page } = await openAs(browser, 'admin@demo.test', '/auth/org/invite', PHONE);
  const cards = page.getByRole('list', { name: 'Users' }).getByRole('listitem');
  await expect(cards.first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  const menus = page.getByRole('button', { name: /^Actions for / });
  await expectEachInViewWhenScrolledTo(menus);
  await expectTouchSize(menus.first());
  // A card says what the table's columns say, each with its label.
  const withMenu = cards.filter({ has: menus }).first();
  await expect(withMenu.getByRole('term')).toHaveText(['Email', 'Status']);
  await expectNoSeriousA11yViolations(page, 'org users (phone)');

  // A member's menu, then the edit dialog: the whole screen.
  const member = cards
    .filter({ has: page.getByRole('button', { name: /^Actions for / }) })
    .filter({ hasNotText: 'Pending Invite' });
  await member
    .first()
    .getByRole('button', { name: /^Actions for / })
    .click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await expectFillsTheScreen(edit, PHONE);
  await expectNoSeriousA11yViolations(page, 'edit user dialog (phone)');
  await page.keyboard.press('Escape');
  await expect(edit).toHaveCount(0);

  // The invite dialog of the seats area fills the screen too, through the same theme.
  await page.getByRole('button', { name: 'Invite User' }).first().click();
  await expectFillsTheScreen(page.getByRole('dialog'), PHONE);
  await context.close();
});

test('at 320 px wide the org users list and a confirmation reflow without sideways scrolling', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'admin@demo.test', '/auth/org/invite', NARROW);
  await expect(page.getByRole('list', { name: 'Users' }).getByRole('listitem').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectEachInViewWhenScrolledTo(page.getByRole('button', { name: /^Actions for / }));
  await page
    .getByRole('listitem')
    .filter({ hasNotText: 'Pending Invite' })
    .getByRole('button', { name: /^Actions for / })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove user' });
  await expectFillsTheScreen(confirm, NARROW);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'remove user confirmation (320 px)');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await context.close();
});

for (const viewport of [PHONE, NARROW]) {
  test(`at ${viewport.width} px wide the access area's organisations and users are cards, each Details button on screen`, async ({
    browser,
  }) => {
    // Every card of a page of users is scrolled to in turn.
    test.setTimeout(120_000);
    const { context, page } = await openAs(browser, 'super@demo.test', '/auth/access/organizations', viewport);
    const organisations = page.getByRole('list', { name: 'Organizations' }).getByRole('listitem');
    await expect(organisations.first()).toBeVisible();
    await expect(organisations.first().getByRole('term')).toHaveText(['Product type', 'Seats used', 'Status']);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `access area organisations (${viewport.width} px)`);

    await page.getByRole('button', { name: 'Create organization' }).click();
    await expectFillsTheScreen(page.getByRole('dialog', { name: 'Create organization' }), viewport);
    await page.keyboard.press('Escape');

    await page.goto('/auth/access/users');
    const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('term') === 'demo.test');
    await page.getByRole('searchbox', { name: 'Search users by email or name' }).fill('demo.test');
    await answered;
    const users = page.getByRole('list', { name: 'Users' }).getByRole('listitem');
    await expect(users.first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    const details = page.getByRole('button', { name: /^Details of / });
    await expectEachInViewWhenScrolledTo(details);
    await expectTouchSize(details.first());
    await page.getByRole('button', { name: 'Details of Olivia Bennett' }).click();
    await expect(page.getByRole('button', { name: 'Change organization' })).toBeVisible();
    const memberships = page.getByRole('list', { name: 'Memberships of Olivia Bennett' }).getByRole('listitem');
    await expect(memberships.filter({ hasText: 'Riverside EMS Academy' }).getByText('Key Owner')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `access area users with details (${viewport.width} px)`);
    await context.close();
  });
}

for (const viewport of [PHONE, NARROW]) {
  test(`at ${viewport.width} px wide the groups and a group’s members are cards with their buttons on screen`, async ({
    browser,
  }) => {
    const { context, page } = await openAs(browser, 'admin@demo.test', '/auth/org/groups', viewport);
    const groups = page.getByRole('list', { name: 'Groups' }).getByRole('listitem');
    await expect(groups.first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    const renames = page.getByRole('button', { name: /^Rename / });
    await expectEachInViewWhenScrolledTo(renames);
    await expectEachInViewWhenScrolledTo(page.getByRole('button', { name: /^Remove / }));
    await expectTouchSize(renames.first());
    await expectNoSeriousA11yViolations(page, `groups (${viewport.width} px)`);

    await page.getByRole('button', { name: 'Create group' }).click();
    await expectFillsTheScreen(page.getByRole('dialog', { name: 'Create group' }), viewport);
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Paramedic Cohort A' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Group details' })).toBeVisible();
    const members = page.getByRole('list', { name: /^Members of / }).getByRole('listitem');
    await expect(members.first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectEachInViewWhenScrolledTo(page.getByRole('button', { name: /from the group$/ }));
    await expectNoSeriousA11yViolations(page, `group members (${viewport.width} px)`);
    await context.close();
  });
}

test('at 320 px wide the View As form reflows without sideways scrolling', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'super@demo.test', '/auth/access/skeleton', NARROW);
  await expect(page.getByRole('heading', { level: 1, name: 'View As User' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'view as (320 px)');
  await context.close();
});

test('on a desktop the tables stay tables and a dialog stays a box in the page', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'admin@demo.test', '/auth/org/invite', DESKTOP);
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Users' })).toHaveCount(0);
  const menu = page.getByRole('button', { name: /^Actions for / }).first();
  expect((await menu.boundingBox())?.height).toBe(40);
  await page.getByRole('button', { name: 'Invite User' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.width ?? DESKTOP.width).toBeLessThan(DESKTOP.width);
  expect(box?.height ?? DESKTOP.height).toBeLessThan(DESKTOP.height);
  expect(box?.y ?? 0).toBeGreaterThan(0);
  await context.close();
});
