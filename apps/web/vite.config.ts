import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './vite/precompress';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiOrigin = 'http://localhost:3000';

/** The libraries every page needs; MUI's components stay with the pages that use them. */
const FRAMEWORK_MODULES =
  /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router|react-is|react-hook-form|@tanstack[\\/](?:query-core|react-query)|@emotion[\\/][^\\/]+|stylis|hoist-non-react-statics|@mui[\\/](?:system|utils|styled-engine|private-theming)|@babel[\\/]runtime|clsx|prop-types)[\\/]/;

export default defineConfig({
  root,
  base: '/auth/',
  plugins: [react(), precompress()],
  resolve: {
    // The domain package exposes its TypeScript sources under the "source" condition.
    conditions: ['source', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        // A stand-alone script the server's authoring pages load: /auth/authoring-guard.js
        'authoring-guard': fileURLToPath(new URL('src/authoring-guard-entry.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'authoring-guard' ? '[name].js' : 'assets/[name]-[hash].js'),
        codeSplitting: {
          groups: [
            {
              // What every page runs (React, the router, the styling engine, queries, forms): one
              // file instead of a dozen small ones, each a request of its own on the first load.
              name: 'framework',
              test: FRAMEWORK_MODULES,
              // Only what the first page loads anyway; the rest stays with the pages that use it.
              tags: ['$initial'],
            },
            {
              // The MUI components of the first page (the sign-in form), likewise in one file.
              name: 'mui',
              test: /[\\/]node_modules[\\/]@mui[\\/]material[\\/]/,
              tags: ['$initial'],
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiOrigin,
      '/.well-known': apiOrigin,
      '/authoring': apiOrigin,
    },
  },
});
