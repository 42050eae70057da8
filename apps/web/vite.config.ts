import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiOrigin = 'http://localhost:3000';

export default defineConfig({
  root,
  base: '/auth/',
  plugins: [react()],
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
