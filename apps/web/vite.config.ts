import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { lazySchemas } from './vite/lazy-schemas';
import { moduleGraph } from './vite/module-graph';
import { compileHints, pagePreloads } from './vite/page-preloads';
import { precompress } from './vite/precompress';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiOrigin = 'http://localhost:3000';

/** The libraries every page needs; MUI's components stay with the pages that use them. */
const FRAMEWORK_MODULES =
  /[\\/]node_modules[\\/](?:react|react-dom|preact|scheduler|react-router|react-is|react-hook-form|@tanstack[\\/](?:query-core|react-query)|@emotion[\\/][^\\/]+|stylis|hoist-non-react-statics|@mui[\\/](?:system|utils|styled-engine|private-theming)|@babel[\\/]runtime|clsx|prop-types)[\\/]/;

/** What index.html loads: the entry and its static imports. */
const FIRST_LOAD_ROOTS = /\/src\/main\.tsx$/;

/** The public pages other than sign-in (each a chunk of its own). */
const PUBLIC_PAGE_ROOTS = /\/src\/features\/(auth|invitations)\/routes\/[^/]+\.tsx$/;

/** The sign-up page, the public page most often opened after sign-in. */
const SIGNUP_ROOT = /\/src\/features\/auth\/routes\/signup\.tsx$/;

/**
 * What every signed-in page needs (the shell, the guards and the session code) and the page the
 * guards fall back to (profile), with its section layout.
 */
const SIGNED_IN_ROOTS =
  /\/src\/(app\/(layouts\/app-shell|guards|routes\/profile)|features\/account\/components\/account-layout)\.tsx?$/;

/**
 * The pages whose HTML names the scripts they render with (`vite/page-preloads.ts`): the sign-up
 * page, and the profile (the signed-in page opened directly most often, and where the guards send
 * a user who may not open a page) with the signed-in shell, the guards and the query cache.
 */
const PAGE_PRELOADS = [
  { page: 'signup', modules: SIGNUP_ROOT },
  {
    page: 'account/profile',
    modules:
      /\/src\/(app\/(layouts\/app-shell|guards|query-layout|routes\/profile)|features\/account\/components\/account-layout)\.tsx?$/,
  },
];

const graph = moduleGraph();

/** Whether module `id` is loaded by the first load; by a signed-in page after it; by another public page. */
const inFirstLoad = (id: string) => graph.closure(FIRST_LOAD_ROOTS).has(id);
const inSignedIn = (id: string) => graph.closure(SIGNED_IN_ROOTS).has(id) && !inFirstLoad(id);
const inPublicPages = (id: string) => graph.closure(PUBLIC_PAGE_ROOTS).has(id);
const inSignup = (id: string) => graph.closure(SIGNUP_ROOT).has(id) && !inFirstLoad(id);

export default defineConfig({
  root,
  base: '/auth/',
  plugins: [react(), lazySchemas(), precompress(), graph.plugin, pagePreloads(PAGE_PRELOADS), compileHints(PAGE_PRELOADS)],
  resolve: {
    // The domain package exposes its TypeScript sources under the "source" condition.
    conditions: ['source', ...defaultClientConditions],
    // Preact renders the app (decision 0021): its React-compatible layer stands in for React DOM.
    alias: [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
    ],
  },
  // The bulk-invite file reader's worker (a module worker): the spreadsheet libraries load only for the file type read.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
      },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            {
              // What every page runs (React, the router, the styling engine, queries, forms): one
              // file instead of a dozen small ones, each a request of its own on the first load.
              name: 'framework',
              test: FRAMEWORK_MODULES,
              // Only what the first page loads anyway; the rest stays with the pages that use it.
              tags: ['$initial'],
              priority: 2,
            },
            {
              // The MUI components of the first page (the sign-in form), likewise in one file.
              name: 'mui',
              test: /[\\/]node_modules[\\/]@mui[\\/]material[\\/]/,
              tags: ['$initial'],
              priority: 2,
            },
            {
              // The app's own first-load modules. A group also takes the modules its modules
              // import; this one, before the groups below, keeps those in the first load.
              name: 'app',
              test: (id) => inFirstLoad(id) && !FIRST_LOAD_ROOTS.test(id.split('\\').join('/')),
              priority: 1,
            },
            {
              // What the sign-up page imports beyond the first load that the signed-in pages import
              // too (the select field, the account types): one small file both load, so that a
              // signed-in page does not load the sign-up page's own file.
              name: 'signup-shared',
              test: (id) => inSignup(id) && inSignedIn(id),
              priority: 1,
            },
            {
              // The sign-up page and what only it imports, in one file of its own: not the shared
              // file below, most of which it does not run.
              name: 'signup',
              test: (id) => inSignup(id) && !inSignedIn(id),
              priority: 1,
            },
            {
              // What a signed-in page loads after the first load, the public pages' too (forms,
              // schemas, the query cache): one file, not dozens of small ones. Over HTTP/1.1 a
              // browser fetches six files at a time per server; each small file costs a round trip.
              name: 'shared',
              test: (id) => inSignedIn(id) && inPublicPages(id),
            },
            {
              // The rest of the signed-in shell and of the profile page, in one file.
              name: 'signed-in',
              test: (id) => inSignedIn(id) && !inPublicPages(id),
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
