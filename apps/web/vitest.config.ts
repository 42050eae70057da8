import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The test files that replace a module with `vi.mock`. The other files share one module cache and
 * one jsdom per worker (`isolate: false`): importing React, MUI and the app again for every file,
 * in a new jsdom, took more than half of the project's CPU time. A mock only applies to a module
 * imported after it, so these files run in the root config's isolated `web-mocks` project.
 */
const FILES_WITH_MODULE_MOCKS = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .filter((file) => readFileSync(path.join(root, 'src', file), 'utf8').includes('vi.mock('))
  .map((file) => `src/${file.split(path.sep).join('/')}`);

/** The web project's configuration; `isolated` gives each file modules and a jsdom of its own. */
export function webProject({ name, isolated }: { name: string; isolated: boolean }) {
  return defineConfig({
    root,
    plugins: [react()],
    resolve: {
      conditions: ['source', ...defaultClientConditions],
    },
    test: {
      name,
      environment: 'jsdom',
      include: isolated ? FILES_WITH_MODULE_MOCKS : ['src/**/*.test.{ts,tsx}'],
      exclude: isolated ? [] : FILES_WITH_MODULE_MOCKS,
      isolate: isolated,
      setupFiles: ['./src/testing/setup.ts'],
      restoreMocks: true,
      unstubGlobals: true,
      // Rendering MUI dialogs in jsdom takes seconds while the server suite shares the two cores.
      testTimeout: 20_000,
    },
  });
}

export default webProject({ name: 'web', isolated: false });
