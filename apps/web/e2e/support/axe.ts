import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';

/**
 * Runs axe on the page once nothing on it says it is busy and its transitions have finished (a
 * colour halfway through a button's transition is not what people read, nor a control about to
 * change once its data arrives; endless animations such as spinners are not waited for); fails on
 * serious or critical violations.
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  // Judged again when it fails: a transition can start just after the wait (a button enabled a
  // frame later), and axe then reads a colour halfway. A real violation stays. The budget holds a
  // few runs of axe over a page of cards on a machine whose cores the other workers hold: axe
  // itself then takes seconds.
  await expect(async () => {
    await page.waitForFunction(
      () =>
        document.querySelector('[aria-busy="true"]') === null &&
        document
          .getAnimations()
          .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
    );
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    expect(serious, `accessibility violations on the ${screen} screen`).toEqual([]);
  }).toPass({ timeout: 30_000 });
}
