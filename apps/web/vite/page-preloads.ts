import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/** A page (its path under the app's base, without it) and the modules it renders first. */
export type PagePreload = { page: string; modules: RegExp };

/** The `<link>` that asks the browser to fetch (and compile) a script before it is imported. */
const preloadLink = (href: string) => `<link rel="modulepreload" crossorigin href="${href}">`;

/** The scripts index.html loads (the entry and its static imports), and each page's beyond them. */
export function pageScripts(
  bundle: Rolldown.OutputBundle,
  pages: readonly PagePreload[],
): { firstLoad: OutputChunk[]; pages: { page: string; chunks: OutputChunk[] }[] } {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withStaticImports = (from: readonly OutputChunk[]) => {
    const seen = new Map<string, OutputChunk>();
    const visit = (chunk: OutputChunk) => {
      if (seen.has(chunk.fileName)) return;
      seen.set(chunk.fileName, chunk);
      for (const name of chunk.imports) {
        const next = byName.get(name);
        if (next) visit(next);
      }
    };
    for (const chunk of from) visit(chunk);
    return [...seen.values()];
  };
  const firstLoad = withStaticImports(chunks.filter((chunk) => chunk.isEntry));
  const isFirstLoad = new Set(firstLoad.map((chunk) => chunk.fileName));
  return {
    firstLoad,
    pages: pages.map(({ page, modules }) => {
      const matches = (id: string) => modules.test(id.split(path.sep).join('/'));
      // A module the router imports on demand and the build groups into a larger chunk is
      // imported through a small file of its own that re-exports it: that file is named too.
      const roots = chunks.filter(
        (chunk) =>
          chunk.moduleIds.some(matches) ||
          (chunk.isDynamicEntry && chunk.facadeModuleId !== null && matches(chunk.facadeModuleId)),
      );
      if (roots.length === 0) throw new Error(`page-preloads: no chunk holds the modules of ${page}`);
      const pageChunks = withStaticImports(roots)
        .filter((chunk) => !isFirstLoad.has(chunk.fileName))
        .sort((a, b) => a.fileName.localeCompare(b.fileName));
      return { page, chunks: pageChunks };
    }),
  };
}

/**
 * Writes, for each of `pages`, a copy of index.html that names the scripts the page needs beyond
 * the first load (`pages/<page>.html`, which the server sends for that path). Without it the
 * browser learns of those scripts only once the first load has run and the router has matched the
 * path: a round trip and the first load's start-up later. The scripts are the chunks holding the
 * page's modules, the files the router imports them through, and every chunk they import, less
 * what index.html loads already (`pageScripts`).
 */
export function pagePreloads(pages: readonly PagePreload[]): Plugin {
  let base = '/';
  return {
    name: 'patientsim:page-preloads',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      const source = typeof html.source === 'string' ? html.source : new TextDecoder().decode(html.source);
      for (const { page, chunks } of pageScripts(bundle, pages).pages) {
        const links = chunks.map((chunk) => `    ${preloadLink(`${base}${chunk.fileName}`)}\n`).join('');
        this.emitFile({
          type: 'asset',
          fileName: `pages/${page}.html`,
          source: source.replace('  </head>', `${links}  </head>`),
        });
      }
    },
  };
}

/** V8's explicit compile hint: the first line of a script whose functions should all be compiled at once. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Marks the scripts the first pages run as they load (the first load, and the scripts `pages`
 * name in their own copies) with V8's compile hint. Chromium then compiles every function of
 * those files while it downloads them, on another thread, instead of each function on the main
 * thread the first time it is called, in the middle of the page's start-up and first render.
 * Other browsers read a comment. The scripts of other pages, most of whose functions a page does
 * not call, stay as they are.
 */
export function compileHints(pages: readonly PagePreload[]): Plugin {
  return {
    name: 'patientsim:compile-hints',
    apply: 'build',
    // Once the files are written: Vite's own last step still adds a line at the top of the files
    // that import others on demand, and the hint must be the first line.
    async writeBundle(options, bundle) {
      if (bundle['index.html']?.type !== 'asset' || !options.dir) return;
      const scripts = pageScripts(bundle, pages);
      const atLoad = new Set([...scripts.firstLoad, ...scripts.pages.flatMap((page) => page.chunks)]);
      await Promise.all(
        [...atLoad].map(async (chunk) => {
          const file = path.join(options.dir as string, chunk.fileName);
          const code = await readFile(file, 'utf8');
          if (!code.startsWith(COMPILE_HINT)) await writeFile(file, `${COMPILE_HINT}\n${code}`);
        }),
      );
    },
  };
}
