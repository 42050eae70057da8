import { defineConfig } from 'vitest/config';

const conditions = ['source', 'node'];

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { conditions },
        ssr: { resolve: { conditions } },
        test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { conditions },
        ssr: { resolve: { conditions } },
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
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
