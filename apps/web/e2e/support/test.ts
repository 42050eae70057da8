import { test as base } from '@playwright/test';
import { type E2EServer, e2eServerOf } from './servers';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, with `baseURL` (and so `page`, `request` and `browser.newContext()`) on the
 * worker's own server. Every spec imports `test` and `expect` from here.
 */
export const test = base.extend<object, { e2eServer: E2EServer }>({
  e2eServer: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide, workerInfo) => {
      await provide(e2eServerOf(workerInfo.parallelIndex));
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ e2eServer }, provide) => {
    await provide(e2eServer.baseUrl);
  },
});
