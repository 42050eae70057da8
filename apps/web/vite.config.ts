import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { precompress } from './vite/precompress';
import { prerender } from './vite/prerender';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiOrigin = 'http://localhost:3000';

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
        codeSplitting: {
          groups: [
            // The libraries the first page runs (React, the router, the styling engine, queries,
            // forms) in one file: each small file is a request of its own, six at a time per server.
            { name: 'framework', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
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
