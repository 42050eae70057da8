import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser downloads; images and fonts other than SVG are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this a compressed copy saves less than its response headers cost. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `<file>.br` (best brotli) and `<file>.gz` (best gzip) next to `file`, when they are smaller. */
export async function precompressFile(file: string): Promise<{ raw: number; br: number | null; gzip: number | null }> {
  const raw = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  const keep = async (compressed: Buffer, extension: string) => {
    if (compressed.length >= raw.length) return null;
    await writeFile(`${file}${extension}`, compressed);
    return compressed.length;
  };
  return { raw: raw.length, br: await keep(br, '.br'), gzip: await keep(gz, '.gz') };
}

/**
 * Compresses the built app once, at build time: every text file of the output gets a brotli and a
 * gzip copy beside it, which the server sends to browsers that accept them (its static files are
 * registered with `preCompressed`). Best compression costs a few seconds per build and nothing per
 * request.
 */
export function precompress(): Plugin {
  let outDir = '';
  let writesFiles = true;
  return {
    name: 'patientsim:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      writesFiles = config.build.write;
    },
    async closeBundle() {
      if (!writesFiles) return;
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      const sizes = await Promise.all(
        files.map(async (file) => ((await readFile(file)).length >= MIN_BYTES ? precompressFile(file) : null)),
      );
      const done = sizes.filter((size) => size !== null);
      const total = (pick: (size: (typeof done)[number]) => number | null) =>
        done.reduce((sum, size) => sum + (pick(size) ?? size.raw), 0);
      this.info(
        `precompressed ${done.length} files: ${(total((size) => size.raw) / 1000).toFixed(0)} kB → ` +
          `${(total((size) => size.br) / 1000).toFixed(0)} kB brotli, ${(total((size) => size.gzip) / 1000).toFixed(0)} kB gzip`,
      );
    },
  };
}
