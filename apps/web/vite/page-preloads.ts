import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/** A page (its path under the app's base, without it) and the modules it renders first. */
export type PagePreload = { page: string; modules: RegExp };

/** The `<link>` that asks the browser to fetch (and compile) a script before it is imported. */
const preloadLink = (href: string) => `<link rel="modulepreload" crossorigin href="${href}">`;

/**
 * Writes, for each of `pages`, a copy of index.html that names the scripts the page needs beyond
 * the first load (`pages/<page>.html`, which the server sends for that path). Without it the
 * browser learns of those scripts only once the first load has run and the router has matched the
 * path: a round trip and the first load's start-up later. The scripts are the chunks holding the
 * page's modules, the files the router imports them through, and every chunk they import, less
 * what index.html loads already.
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
      const entries = chunks.filter((chunk) => chunk.isEntry);
      const firstLoad = new Set(withStaticImports(entries).map((chunk) => chunk.fileName));
      const source = typeof html.source === 'string' ? html.source : new TextDecoder().decode(html.source);
      for (const { page, modules } of pages) {
        const matches = (id: string) => modules.test(id.split(path.sep).join('/'));
        // A module the router imports on demand and the build groups into a larger chunk is
        // imported through a small file of its own that re-exports it: that file is named too.
        const roots = chunks.filter(
          (chunk) =>
            chunk.moduleIds.some(matches) ||
            (chunk.isDynamicEntry && chunk.facadeModuleId !== null && matches(chunk.facadeModuleId)),
        );
        if (roots.length === 0) throw new Error(`page-preloads: no chunk holds the modules of ${page}`);
        const files = withStaticImports(roots)
          .map((chunk) => chunk.fileName)
          .filter((file) => !firstLoad.has(file))
          .sort();
        const links = files.map((file) => `    ${preloadLink(`${base}${file}`)}\n`).join('');
        this.emitFile({
          type: 'asset',
          fileName: `pages/${page}.html`,
          source: source.replace('  </head>', `${links}  </head>`),
        });
      }
    },
  };
}
