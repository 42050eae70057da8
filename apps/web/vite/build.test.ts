import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { type Rolldown, build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const webRoot = fileURLToPath(new URL('..', import.meta.url));

type OutputChunk = Rolldown.OutputChunk;

/** What the first page must not load: the signed-in app, the guards and session code, heavy libraries. */
const NOT_IN_FIRST_LOAD: [what: string, pattern: RegExp][] = [
  ['the signed-in shell', /src\/app\/layouts\/(app-shell|signed-in-layout|nav-bar|side-nav)\.tsx$/],
  ['the route guards', /src\/app\/guards\.ts$/],
  ['the stored-session parsing', /src\/lib\/session-store\.ts$/],
  ['the not-found page', /src\/app\/not-found\.tsx$/],
  ['signed-in screens', /src\/(features\/(account|org|groups|access|payment|notifications|invitations)|app\/routes)\//],
  ['the other public pages', /src\/features\/auth\/routes\/(?!login\.tsx)/],
  ['zod (the schemas load when the form is first used)', /node_modules\/zod\//],
  ['the spreadsheet readers', /node_modules\/(@e965\/xlsx|papaparse)\//],
  [
    'MUI menus, dialogs and drawers',
    /node_modules\/@mui\/material\/(Select|Menu|Popover|Modal|Dialog|Drawer|Autocomplete)\/\1\.mjs$/,
  ],
];

describe('the production build', () => {
  let outDir: string;
  let chunks: OutputChunk[];

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'patientsim-web-build-'));
    const result = await build({
      configFile: path.join(webRoot, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
    const outputs = Array.isArray(result) ? result : [result];
    chunks = outputs.flatMap((output) =>
      'output' in output ? output.output.filter((item): item is OutputChunk => item.type === 'chunk') : [],
    );
  }, 180_000);

  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  /** The app's entry chunk and every chunk it imports statically: what index.html loads. */
  function firstLoad(): OutputChunk[] {
    const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html'));
    if (!entry) throw new Error('no entry chunk for index.html');
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const seen = new Map<string, OutputChunk>();
    const visit = (chunk: OutputChunk) => {
      if (seen.has(chunk.fileName)) return;
      seen.set(chunk.fileName, chunk);
      for (const imported of chunk.imports) {
        const next = byName.get(imported);
        if (next) visit(next);
      }
    };
    visit(entry);
    return [...seen.values()];
  }

  it('loads exactly the first-load chunks from index.html', () => {
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const loaded = [...html.matchAll(/(?:src|href)="\/auth\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]).sort();
    expect(loaded).toEqual(
      firstLoad()
        .map((chunk) => chunk.fileName)
        .sort(),
    );
  });

  it('puts the sign-in page in the first load and keeps the signed-in app and heavy code out of it', () => {
    const modules = firstLoad().flatMap((chunk) => chunk.moduleIds.map((id) => id.split(path.sep).join('/')));
    expect(modules.some((id) => id.endsWith('src/features/auth/routes/login.tsx'))).toBe(true);
    const found = NOT_IN_FIRST_LOAD.map(([what, pattern]) => [what, modules.filter((id) => pattern.test(id))] as const).filter(
      ([, ids]) => ids.length > 0,
    );
    expect(Object.fromEntries(found)).toEqual({});
  });

  it('writes a brotli and a gzip copy of every script, the same bytes once decoded', () => {
    const assets = path.join(outDir, 'assets');
    const scripts = readdirSync(assets).filter((file) => file.endsWith('.js') && statSync(path.join(assets, file)).size >= 1024);
    expect(scripts.length).toBeGreaterThan(10);
    for (const file of scripts) {
      const raw = readFileSync(path.join(assets, file));
      const br = readFileSync(path.join(assets, `${file}.br`));
      const gz = readFileSync(path.join(assets, `${file}.gz`));
      expect(zlib.brotliDecompressSync(br).equals(raw), `${file}.br`).toBe(true);
      expect(zlib.gunzipSync(gz).equals(raw), `${file}.gz`).toBe(true);
      expect(br.length, `${file}.br is smaller`).toBeLessThan(raw.length);
    }
  });
});
