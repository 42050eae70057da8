import { defineConfig } from 'vitest/config';
import { webProject } from './apps/web/vitest.config';

const conditions = ['source', 'node'];

export default defineConfig({
  test: {
    // Every test file has a database, app and servers of its own, and much of their time is spent
    // waiting on processes, Redis and PostgreSQL: two files at a time on two cores (Vitest's default
    // would be one).
    maxWorkers: 2,
    projects: [
      {
        resolve: { conditions },
        ssr: { resolve: { conditions } },
        test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: {
          conditions,
          // One graphql for the server's code and mercurius, as Node resolves it (its CommonJS
          // main): the module build beside it would be a second copy, whose types the first refuses.
          alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
        },
        ssr: { resolve: { conditions } },
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/setup.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
      // The web tests that mock a module, each file with modules and a jsdom of its own.
      webProject({ name: 'web-mocks', isolated: true }),
      {
        // Checks of the web app's production build (each file runs a build).
        test: {
          name: 'web-build',
          root: 'apps/web',
          include: ['vite/**/*.test.ts'],
          environment: 'node',
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
