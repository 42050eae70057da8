import { defineConfig, devices } from '@playwright/test';
import { e2eServers } from './support/servers';

/**
 * Browser tests against the production build, in the system Chromium (never a downloaded one).
 * One worker per server the runner started (E2E_WORKERS, see run.mjs); whole spec files go to a
 * worker, in file order, and the tests of a file run in order on it.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  workers: e2eServers().length,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    // No baseURL here: the `test` of support/test.ts gives each worker its own server's.
    headless: true,
    // A trace records every action's page and a screencast: it took a third of the suite's CPU time
    // (e2e README). Off unless asked for (E2E_TRACE=1) when a failure needs more than its screenshot
    // and the server's log.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Chromium's headless shell, the build Playwright itself runs headless: the full browser in its
      // new headless mode composites every frame through a software GPU and cost a sixth more CPU time.
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
