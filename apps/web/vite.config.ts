import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './vite/precompress';
import { prerender } from './vite/prerender';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiOrigin = 'http://localhost:3000';

/** Module ids by where they come from, for the chunk groups below. */
const nodeModules = /[\\/]node_modules[\\/]/;
const entryModule = /[\\/]apps[\\/]web[\\/]src[\\/]main\.tsx$/;
const appSource = /[\\/](apps[\\/]web[\\/]src|packages[\\/]domain[\\/]src)[\\/]/;
/**
 * The second factor's screens and the libraries only they use (WebAuthn, QR codes): left to the
 * chunks of the pages that import them, out of the files every signed-in page loads.
 */
const secondFactorLibraries = /[\\/]node_modules[\\/](@simplewebauthn|qrcode|dijkstrajs)[\\/]/;
const secondFactorScreens = /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/](two-factor[\\/]|auth[\\/]api[\\/]sign-in-with-passkey)/;
const signupPage =
  /[\\/]apps[\\/]web[\\/]src[\\/](features[\\/]auth[\\/]components[\\/]signup-form|components[\\/]loading-state)\.tsx$/;

export default defineConfig({
  root,
  base: '/auth/',
  plugins: [
    react(),
    // The public pages most visits open first, as HTML the browser shows before the scripts arrive.
    prerender({ entry: 'src/app/prerender.tsx', pages: ['login', 'signup'] }),
    precompress(),
  ],
  resolve: {
    // The domain package exposes its TypeScript sources under the "source" condition.
    conditions: ['source', ...defaultClientConditions],
  },
  // The bulk-invite file reader's worker (a module worker): the spreadsheet libraries load only for the file type read.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Rolldown's own splitting gives every module shared by two chunks a file of its own: the
        // signed-in pages loaded some 90 files, each a request of its own (six at a time per server
        // over HTTP/1.1), several round trips in turn on a slow network. These groups, taken in
        // order of priority, make a few files instead (decision 0062). Each group takes along the
        // modules its own import (Rolldown's default, `includeDependenciesRecursively`) unless a
        // group before it holds them: a file imports only files of the groups before its own, never
        // one after, so the files have no import cycle and every module runs after its imports.
        codeSplitting: {
          groups: [
            // The libraries the first page runs (React, the router, the styling engine, queries,
            // forms, zod), then the app's own first-load modules: the sign-in page and the router.
            { name: 'framework', test: nodeModules, tags: ['$initial'], priority: 40 },
            // The entry module (`src/main.tsx`) stays in the entry file, which no other file imports.
            { name: 'app', test: (id) => appSource.test(id) && !entryModule.test(id), tags: ['$initial'], priority: 30 },
            // What the other prerendered page, sign-up, needs beyond the first load and its own
            // chunk: its form, the loading state of its invitation variant, and their imports.
            // It is hydrated once these have run, without the signed-in app's libraries.
            { name: 'signup-page', test: signupPage, priority: 25 },
            // The libraries of the signed-in app (MUI's menus, dialogs, tables...), then the app
            // modules two or more of its chunks share (the shell, the API hooks, the components).
            // Every signed-in page loads these two files: not the second factor's screens and
            // libraries, which only the sign-in's second step and the set-up screens need.
            { name: 'vendor', test: (id) => nodeModules.test(id) && !secondFactorLibraries.test(id), priority: 20 },
            {
              name: 'shared',
              test: (id) => appSource.test(id) && !secondFactorScreens.test(id),
              minShareCount: 2,
              priority: 10,
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
