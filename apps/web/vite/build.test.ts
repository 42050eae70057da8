import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { type Rolldown, build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const webRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Compressed JavaScript the sign-in page loads (1 kB = 1,000 bytes): React DOM, MUI, the router,
 * the query cache, the form library and the page. The page shows and takes input before it has
 * arrived (it is prerendered); the budget keeps what it must download and run before it answers a
 * click in check, with room for the sign-in form's react-hook-form and zod.
 */
const FIRST_LOAD_BROTLI_BUDGET = 200_000;

type OutputChunk = Rolldown.OutputChunk;

/** What the first page must not load: the signed-in app, the guards and session code, heavy libraries. */
const NOT_IN_FIRST_LOAD: [what: string, pattern: RegExp][] = [
  ['the signed-in shell', /src\/app\/layouts\/(app-shell|signed-in-layout|nav-bar|side-nav)\.tsx$/],
  ['the route guards', /src\/app\/guards\.ts$/],
  ["the modules starting the pages' reads", /src\/app\/route-reads\.ts$/],
  ['the not-found page', /src\/app\/not-found\.tsx$/],
  [
    'signed-in screens',
    /src\/(features\/(account|org|groups|access|payment|notifications|invitations|cases|two-factor)|app\/routes)\//,
  ],
  ['the other public pages', /src\/features\/auth\/routes\/(?!login\.tsx)/],
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
    // The build `npm run build` makes: the test runner sets NODE_ENV=test, which keeps the
    // libraries' development code in the bundle.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    let result: Awaited<ReturnType<typeof build>>;
    try {
      result = await build({
        configFile: path.join(webRoot, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const outputs = Array.isArray(result) ? result : [result];
    chunks = outputs.flatMap((output) =>
      'output' in output ? output.output.filter((item): item is OutputChunk => item.type === 'chunk') : [],
    );
  }, 180_000);

  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  const normalized = (id: string) => id.split(path.sep).join('/');

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

  const firstLoadModules = () => firstLoad().flatMap((chunk) => chunk.moduleIds.map(normalized));

  const brotliSize = (code: string) =>
    zlib.brotliCompressSync(Buffer.from(code), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

  /** The scripts a page of the build loads (`<script src>` and `<link rel="modulepreload">`). */
  const scriptsOf = (html: string) =>
    [...html.matchAll(/(?:src|href)="\/auth\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]).sort();

  const readPage = (file: string) => readFileSync(path.join(outDir, file), 'utf8');

  it('renders with React DOM, and ships the schemas as written', () => {
    const modules = chunks.flatMap((chunk) => chunk.moduleIds.map(normalized));
    expect(firstLoadModules().some((id) => /node_modules\/react-dom\//.test(id))).toBe(true);
    expect(modules.filter((id) => /node_modules\/preact\//.test(id))).toEqual([]);
    // No build step rewrites the app's code: what the unit tests run is what ships.
    expect(chunks.filter((chunk) => chunk.code.includes('__lazySchema')).map((chunk) => chunk.fileName)).toEqual([]);
  });

  it('loads exactly the first-load chunks from index.html', () => {
    expect(scriptsOf(readPage('index.html'))).toEqual(
      firstLoad()
        .map((chunk) => chunk.fileName)
        .sort(),
    );
  });

  it('puts the sign-in page in the first load and keeps the signed-in app and heavy code out of it', () => {
    const modules = firstLoadModules();
    expect(modules.some((id) => id.endsWith('src/features/auth/routes/login.tsx'))).toBe(true);
    const found = NOT_IN_FIRST_LOAD.map(([what, pattern]) => [what, modules.filter((id) => pattern.test(id))] as const).filter(
      ([, ids]) => ids.length > 0,
    );
    expect(Object.fromEntries(found)).toEqual({});
  });

  it(`keeps the first load within ${FIRST_LOAD_BROTLI_BUDGET / 1000} kB of brotli-compressed JavaScript`, () => {
    const sizes = Object.fromEntries(firstLoad().map((chunk) => [chunk.fileName, brotliSize(chunk.code)]));
    const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
    expect(total, JSON.stringify(sizes)).toBeLessThanOrEqual(FIRST_LOAD_BROTLI_BUDGET);
    // Best brotli of some fifty files takes seconds on a busy machine.
  }, 60_000);

  it('makes each other page a chunk the router loads on demand', () => {
    const pageChunk = (file: string) =>
      chunks.find(
        (chunk) => chunk.isDynamicEntry && chunk.facadeModuleId !== null && normalized(chunk.facadeModuleId).endsWith(file),
      );
    for (const file of ['src/features/auth/routes/signup.tsx', 'src/app/routes/profile.tsx', 'src/app/routes/scenarios.tsx']) {
      expect(pageChunk(file), file).toBeDefined();
    }
  });

  it("keeps the second factor's screens and libraries out of the files every signed-in page loads", () => {
    const profile = chunks.find(
      (chunk) =>
        chunk.isDynamicEntry &&
        chunk.facadeModuleId !== null &&
        normalized(chunk.facadeModuleId).endsWith('src/app/routes/profile.tsx'),
    );
    if (!profile) throw new Error('no chunk for the profile page');
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const loaded = [...firstLoad(), profile, ...profile.imports.flatMap((name) => byName.get(name) ?? [])];
    const modules = loaded.flatMap((chunk) => chunk.moduleIds.map(normalized));
    expect(modules.filter((id) => /node_modules\/(@simplewebauthn|qrcode)\/|src\/features\/two-factor\//.test(id))).toEqual([]);
  });

  it('prerenders the sign-in page: its form and its styles in the HTML, the same scripts as index.html', () => {
    const html = readPage('pages/login.html');
    expect(html).toContain('<div id="root" data-prerendered>');
    expect(html).toMatch(/<h1[^>]*>Log in<\/h1>/);
    expect(html).toMatch(/<input[^>]*name="email"/);
    expect(html).toMatch(/<input[^>]*name="password"/);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>(?:<span[^>]*><\/span>)?Log In<\/button>/);
    // Emotion's styles of the page and CssBaseline's, so that it shows styled before the scripts run.
    expect(html).toContain('<style data-emotion="css-global ');
    expect(html).toMatch(/<style data-emotion="css [^"]+">\.css-/);
    // The loading screen of index.html is replaced, not kept beside the page.
    expect(html).not.toContain('class="first-loading"');
    expect(scriptsOf(html)).toEqual(scriptsOf(readPage('index.html')));
  });

  it('prerenders the sign-up page', () => {
    const html = readPage('pages/signup.html');
    expect(html).toContain('<div id="root" data-prerendered>');
    expect(html).toMatch(/<h1[^>]*>Sign up<\/h1>/);
    expect(html).toContain('<style data-emotion="css-global ');
  });

  it('writes a brotli and a gzip copy of every script and prerendered page, the same bytes once decoded', () => {
    const assets = path.join(outDir, 'assets');
    const scripts = readdirSync(assets)
      .filter((file) => file.endsWith('.js') && statSync(path.join(assets, file)).size >= 1024)
      .map((file) => path.join(assets, file));
    expect(scripts.length).toBeGreaterThan(10);
    for (const file of [...scripts, path.join(outDir, 'pages/login.html'), path.join(outDir, 'pages/signup.html')]) {
      const raw = readFileSync(file);
      const br = readFileSync(`${file}.br`);
      const gz = readFileSync(`${file}.gz`);
      expect(zlib.brotliDecompressSync(br).equals(raw), `${file}.br`).toBe(true);
      expect(zlib.gunzipSync(gz).equals(raw), `${file}.gz`).toBe(true);
      expect(br.length, `${file}.br is smaller`).toBeLessThan(raw.length);
    }
  });
});
