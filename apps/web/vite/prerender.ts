import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, type ResolvedConfig, build, defaultServerConditions } from 'vite';
import { withPrerenderedPage } from './page-template';

/** What the prerender entry exports: the HTML of the page at `url`, as the app renders it. */
export type RenderPage = (url: string) => Promise<string>;

/**
 * Writes, for each of `pages` (paths under the app's base), `pages/<page>.html`: index.html with
 * the page rendered inside `#root` (marked `data-prerendered`, so that the app hydrates it rather
 * than rendering anew: `withPrerenderedPage`). The browser shows the page, styles included, as
 * soon as the HTML arrives; its form can be filled in while the scripts load. The server sends that copy for the page's path.
 *
 * The pages are rendered by `entry` (a module exporting `renderPage: RenderPage`), built for Node
 * with Vite's SSR build once the browser build is written.
 */
export function prerender({ entry, pages }: { entry: string; pages: readonly string[] }): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'patientsim:prerender',
    apply: (userConfig, env) => env.command === 'build' && !userConfig.build?.ssr,
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      if (!config.build.write) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const serverDir = path.join(config.root, 'node_modules/.cache/prerender');
      await build({
        configFile: false,
        root: config.root,
        base: config.base,
        mode: config.mode,
        logLevel: 'warn',
        plugins: [react()],
        resolve: { conditions: ['source', ...defaultServerConditions] },
        ssr: {
          // The domain package is TypeScript: bundled, not imported at run time.
          noExternal: ['@patientsim/domain'],
          resolve: { conditions: ['source', ...defaultServerConditions] },
        },
        build: {
          ssr: entry,
          outDir: serverDir,
          emptyOutDir: true,
          rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
        },
      });
      try {
        const { renderPage } = (await import(
          `${pathToFileURL(path.join(serverDir, 'prerender.mjs')).href}?build=${Date.now()}`
        )) as { renderPage: RenderPage };
        const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
        for (const page of pages) {
          const html = await renderPage(`http://localhost${config.base}${page}`);
          const file = path.join(outDir, 'pages', `${page}.html`);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, withPrerenderedPage(template, html));
        }
      } finally {
        await rm(serverDir, { recursive: true, force: true });
      }
    },
  };
}
