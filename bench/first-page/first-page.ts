/**
 * Section 7 of the benchmarks: the first page. Against a server started on the production build
 * (demo seed), in the system Chromium:
 *   - every script a page loads before it is usable, summed as the bytes that crossed the network
 *     (compressed bodies), for the sign-in, sign-up, profile and scenario library pages;
 *   - Lighthouse performance and accessibility scores of the same pages (the profile and the
 *     scenario library signed in), the median of a few runs each, with Lighthouse's default
 *     (mobile: a mid-range phone on slow 4G, 4× slower CPU) and its desktop settings.
 * "Usable" is: the page's heading is shown, its form (if any) has an enabled submit button, and
 * the network has then been idle for 500 ms (Playwright's `networkidle`), so that chunks a page
 * fetches right after its first render count too.
 */
import { type LaunchedChrome, launch as launchChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { type Browser, type BrowserContext, type Page, type Request, chromium } from 'playwright-core';
import { NOISY_CORES, waitForQuiet } from '../lib/cpu.js';
import { DEMO_ACCOUNT } from '../lib/http.js';
import { Scoreboard } from '../lib/report.js';
import type { RunningServer, StartOptions } from '../lib/server.js';
import { median } from '../lib/stats.js';

/** The system Chromium (Debian package `chromium`); no tool downloads a browser of its own. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type PageKey = 'login' | 'signup' | 'profile' | 'cases';

type PagePlan = {
  key: PageKey;
  title: string;
  path: string;
  /** The page's h1 once it has rendered. */
  heading: string;
  /** Whether the page is usable only once its form's submit button is enabled. */
  hasForm: boolean;
  /** Opened by a signed-in user (owner@demo.test); the others signed out. */
  signedIn: boolean;
  /** The lowest Lighthouse performance score (0–100) the page may have, with either settings. */
  performanceTarget: number;
};

export const FIRST_PAGE_PLAN = {
  pages: [
    {
      key: 'login',
      title: 'sign-in',
      path: '/auth/login',
      heading: 'Log in',
      hasForm: true,
      signedIn: false,
      performanceTarget: 90,
    },
    {
      key: 'signup',
      title: 'sign-up',
      path: '/auth/signup',
      heading: 'Sign up',
      hasForm: true,
      signedIn: false,
      performanceTarget: 90,
    },
    {
      key: 'profile',
      title: 'profile',
      path: '/auth/account/profile',
      heading: 'Profile',
      hasForm: false,
      signedIn: true,
      performanceTarget: 80,
    },
    {
      key: 'cases',
      title: 'scenario library',
      path: '/authoring/cases',
      heading: 'Scenarios',
      hasForm: false,
      signedIn: true,
      performanceTarget: 80,
    },
  ] satisfies PagePlan[],
  /** Lighthouse runs per page and form factor (its own advice: the median of several runs). */
  lighthouseRuns: 3,
  /** Lighthouse's default settings (mobile) and its desktop settings. */
  formFactors: ['mobile', 'desktop'],
  /** Longest wait for a page to become usable. */
  usableTimeoutMs: 30_000,
  /** Longest wait, before each Lighthouse run, for other processes on the machine to go quiet. */
  quietWaitMs: 5_000,
  /** Hard stop of the section, server start included. */
  watchdogMs: 25 * 60_000,
} as const;

export const FIRST_PAGE_TARGETS = {
  /** Lighthouse performance (0–100), with either settings, by page (`performanceTarget`). */
  performance: Object.fromEntries(FIRST_PAGE_PLAN.pages.map((page) => [page.key, page.performanceTarget])),
  /** Lighthouse accessibility (0–100), on every page. */
  accessibility: 100,
} as const;

/** One script response as it crossed the network. */
export type ScriptFile = {
  path: string;
  /** The body as sent (compressed when the server compressed it). */
  transferBytes: number;
  /** The body once decoded. */
  decodedBytes: number;
  headerBytes: number;
  encoding: string;
};

export type FormFactor = (typeof FIRST_PAGE_PLAN.formFactors)[number];

export type ScriptFigures = { page: PageKey; files: ScriptFile[]; transferBytes: number; decodedBytes: number };

export type LighthouseRun = {
  performance: number | null;
  accessibility: number | null;
  /** Milliseconds, as Lighthouse simulates them for the form factor. */
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  speedIndexMs: number | null;
  cls: number | null;
  /** Accessibility audits that did not pass. */
  failedAccessibilityAudits: string[];
  finalUrl: string;
};

export type FirstPageResult = {
  board: Scoreboard;
  scripts: Partial<Record<PageKey, ScriptFigures>>;
  /** Runs by page, then by form factor. */
  lighthouse: Partial<Record<PageKey, Partial<Record<FormFactor, LighthouseRun[]>>>>;
  /** The most cores other processes used just before one of a page's Lighthouse runs. */
  backgroundCores: Partial<Record<PageKey, number | null>>;
};

/** What the runner lends this section. */
export type FirstPageContext = {
  progress: (message: string) => void;
  recordError: (step: string, message: string) => void;
  timedStart: (options: StartOptions) => Promise<{ server: RunningServer; otherCores: number | null }>;
};

const KB = 1000;

function firstPageLines(): ConstructorParameters<typeof Scoreboard>[0] {
  const lines: ConstructorParameters<typeof Scoreboard>[0] = [];
  for (const page of FIRST_PAGE_PLAN.pages) {
    lines.push({
      id: `first.${page.key}.js`,
      section: 7,
      label: `${page.title} page (${page.path}): JavaScript before usable, compressed`,
      unit: 'kB',
      digits: 1,
    });
  }
  const runs = `median of ${FIRST_PAGE_PLAN.lighthouseRuns}`;
  for (const page of FIRST_PAGE_PLAN.pages) {
    for (const formFactor of FIRST_PAGE_PLAN.formFactors) {
      lines.push({
        id: `first.${page.key}.lh.${formFactor}.performance`,
        section: 7,
        label: `${page.title} page: Lighthouse performance, ${formFactor} (${runs})`,
        unit: '',
        digits: 0,
        target: { op: '>=', value: page.performanceTarget },
      });
    }
    lines.push({
      id: `first.${page.key}.lh.mobile.accessibility`,
      section: 7,
      label: `${page.title} page: Lighthouse accessibility (${runs}, mobile)`,
      unit: '',
      digits: 0,
      target: { op: '>=', value: FIRST_PAGE_TARGETS.accessibility },
    });
  }
  return lines;
}

/** Waits until the page is usable: its heading shown, its form's submit button enabled. */
async function waitUntilUsable(page: Page, plan: PagePlan): Promise<void> {
  const timeout = FIRST_PAGE_PLAN.usableTimeoutMs;
  await page.getByRole('heading', { level: 1, name: plan.heading, exact: true }).waitFor({ state: 'visible', timeout });
  if (plan.hasForm) await page.locator('form button[type="submit"]:enabled').first().waitFor({ state: 'visible', timeout });
}

/** Signs in through the sign-in page, as a person does, and waits for the page it lands on. */
async function signInThroughForm(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.getByLabel(/^Email/).fill(DEMO_ACCOUNT.email);
  await page.getByLabel(/^Password/).fill(DEMO_ACCOUNT.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  // A verified user with one organisation lands on the scenario library.
  await page.waitForURL(/\/authoring\/cases(\?.*)?$/, { timeout: FIRST_PAGE_PLAN.usableTimeoutMs });
  await page.waitForLoadState('networkidle');
}

/** Empties the browser's HTTP cache, keeping cookies and local storage (the signed-in session). */
async function clearHttpCache(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await cdp.detach();
  }
}

async function describeScript(request: Request, origin: string): Promise<ScriptFile> {
  const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
  if (!response) throw new Error(`no response for ${request.url()}`);
  const [headers, body] = await Promise.all([response.allHeaders(), response.body()]);
  const url = new URL(request.url());
  return {
    path: url.origin === origin ? url.pathname : url.href,
    transferBytes: sizes.responseBodySize,
    decodedBytes: body.length,
    headerBytes: sizes.responseHeadersSize,
    encoding: headers['content-encoding'] ?? 'identity',
  };
}

/** Every script `plan`'s page loads, in a fresh browser context (empty cache), until it is usable. */
async function measureScripts(browser: Browser, baseUrl: string, plan: PagePlan): Promise<ScriptFigures> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (plan.signedIn) {
      await signInThroughForm(page, baseUrl);
      await clearHttpCache(context, page);
    }
    const origin = new URL(baseUrl).origin;
    const pending: Promise<ScriptFile>[] = [];
    let isCounting = true;
    const onFinished = (request: Request) => {
      if (isCounting && request.resourceType() === 'script') pending.push(describeScript(request, origin));
    };
    page.on('requestfinished', onFinished);
    const response = await page.goto(`${baseUrl}${plan.path}`);
    if (!response?.ok()) throw new Error(`GET ${plan.path} answered ${response?.status() ?? 'nothing'}`);
    await waitUntilUsable(page, plan);
    await page.waitForLoadState('networkidle');
    isCounting = false;
    page.off('requestfinished', onFinished);
    const finalPath = new URL(page.url()).pathname;
    if (finalPath !== plan.path) throw new Error(`${plan.path} ended on ${finalPath}`);
    const files = await Promise.all(pending);
    return {
      page: plan.key,
      files,
      transferBytes: files.reduce((sum, file) => sum + file.transferBytes, 0),
      decodedBytes: files.reduce((sum, file) => sum + file.decodedBytes, 0),
    };
  } finally {
    await context.close();
  }
}

function scriptNote(figures: ScriptFigures): string {
  const uncompressed = figures.files.filter((file) => file.encoding === 'identity' && file.decodedBytes >= 1024);
  const encodings = [...new Set(figures.files.map((file) => file.encoding))].join(', ');
  const headers = figures.files.reduce((sum, file) => sum + file.headerBytes, 0);
  return [
    `${figures.files.length} scripts, ${(figures.decodedBytes / KB).toFixed(1)} kB uncompressed (${encodings})`,
    `+ ${(headers / KB).toFixed(1)} kB of response headers`,
    uncompressed.length > 0 ? `⚠ sent uncompressed: ${uncompressed.map((file) => file.path).join(', ')}` : null,
  ]
    .filter(Boolean)
    .join('; ');
}

type Lhr = {
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined>;
  audits: Record<string, { score: number | null; numericValue?: number } | undefined>;
};

function toRun(lhr: Lhr): LighthouseRun {
  const score = (category: string) => {
    const value = lhr.categories[category]?.score;
    return value === null || value === undefined ? null : Math.round(value * 100);
  };
  const numeric = (audit: string) => lhr.audits[audit]?.numericValue ?? null;
  const failedAccessibilityAudits = (lhr.categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .filter((ref) => {
      const audit = lhr.audits[ref.id];
      return audit !== undefined && audit.score !== null && audit.score < 1;
    })
    .map((ref) => ref.id);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    speedIndexMs: numeric('speed-index'),
    cls: numeric('cumulative-layout-shift'),
    failedAccessibilityAudits,
    finalUrl: lhr.finalDisplayedUrl,
  };
}

/** A run Lighthouse could not complete (its result carries a runtime error). */
class LighthouseRuntimeError extends Error {}

/** One Lighthouse run (performance and accessibility) on Chromium at `port`. */
async function runLighthouse(url: string, port: number, formFactor: FormFactor, keepSession: boolean): Promise<LighthouseRun> {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // Signed-in pages keep the session Lighthouse would otherwise clear (the HTTP cache is
      // emptied before each run instead).
      disableStorageReset: keepSession,
    },
    formFactor === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const lhr = result.lhr as unknown as Lhr;
  if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const run = toRun(lhr);
  const finalPath = new URL(run.finalUrl).pathname;
  if (finalPath !== new URL(url).pathname) throw new Error(`Lighthouse on ${url} ended on ${finalPath}`);
  return run;
}

const medianOf = (runs: LighthouseRun[], pick: (run: LighthouseRun) => number | null) => {
  const values = runs.map(pick).filter((value): value is number => value !== null);
  return values.length > 0 ? median(values) : Number.NaN;
};

function lighthouseNote(runs: LighthouseRun[], pick: 'performance' | 'accessibility'): string {
  const each = `runs: ${runs.map((run) => run[pick] ?? '—').join(', ')}`;
  if (pick === 'accessibility') {
    const failed = [...new Set(runs.flatMap((run) => run.failedAccessibilityAudits))];
    return failed.length > 0 ? `${each}; failed audits: ${failed.join(', ')}` : each;
  }
  const ms = (pickMs: (run: LighthouseRun) => number | null) => `${(medianOf(runs, pickMs) / 1000).toFixed(2)} s`;
  return (
    `${each}; median FCP ${ms((run) => run.fcpMs)}, LCP ${ms((run) => run.lcpMs)}, ` +
    `speed index ${ms((run) => run.speedIndexMs)}, TBT ${medianOf(runs, (run) => run.tbtMs).toFixed(0)} ms, ` +
    `CLS ${medianOf(runs, (run) => run.cls).toFixed(3)}`
  );
}

/** Section 7: the first page's scripts and its Lighthouse scores. */
export async function firstPageSuite({ ctx, tmpRoot }: { ctx: FirstPageContext; tmpRoot: string }): Promise<FirstPageResult> {
  const result: FirstPageResult = { board: new Scoreboard(firstPageLines()), scripts: {}, lighthouse: {}, backgroundCores: {} };
  const { board } = result;
  const fail = (step: string, prefix: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    ctx.recordError(step, message);
    console.error(`✗ ${step} failed: ${message}`);
    board.fail(prefix, 'ERROR', `${step} failed: ${message.split('\n', 1)[0]}`);
  };

  let server: RunningServer;
  try {
    ctx.progress('first page: starting a server (migrations + demo seed)');
    // Seeding the demo data on a busy two-core machine has taken over a minute.
    ({ server } = await ctx.timedStart({ label: 'first-page server', dataDir: `${tmpRoot}/first-page`, timeoutMs: 180_000 }));
  } catch (error) {
    fail('first-page server', 'first.', error);
    return result;
  }

  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    try {
      for (const plan of FIRST_PAGE_PLAN.pages) {
        try {
          ctx.progress(`first page: scripts of the ${plan.title} page until usable`);
          const figures = await measureScripts(browser, server.baseUrl, plan);
          result.scripts[plan.key] = figures;
          board.set(`first.${plan.key}.js`, figures.transferBytes / KB, { note: scriptNote(figures) });
        } catch (error) {
          fail(`scripts of the ${plan.title} page`, `first.${plan.key}.js`, error);
        }
      }
    } finally {
      await browser.close();
    }

    await lighthouseRuns(ctx, server, result, fail);
  } finally {
    await server.stop();
  }
  return result;
}

/** Where the Lighthouse runs of one page happen: Chromium's port, and a tab to reset its HTTP cache. */
type LighthouseTarget = { port: number; context: BrowserContext; helper: Page | null; server: RunningServer };

/**
 * The runs of one page with one form factor; `busiest` is the most cores other processes used
 * just before a run.
 */
async function runsOnPage(
  ctx: FirstPageContext,
  target: LighthouseTarget,
  plan: PagePlan,
  formFactor: FormFactor,
): Promise<{ runs: LighthouseRun[]; busiest: number | null }> {
  const runs: LighthouseRun[] = [];
  let busiest: number | null = null;
  for (let run = 1; run <= FIRST_PAGE_PLAN.lighthouseRuns; run += 1) {
    ctx.progress(
      `first page: Lighthouse (${formFactor}) on the ${plan.title} page, run ${run}/${FIRST_PAGE_PLAN.lighthouseRuns}`,
    );
    if (target.helper) await clearHttpCache(target.context, target.helper);
    // Lighthouse scales the CPU time it sees: a busy machine lowers the performance score.
    const background = await waitForQuiet({ maxWaitMs: FIRST_PAGE_PLAN.quietWaitMs, serverPid: target.server.pid });
    if (background !== null) busiest = Math.max(busiest ?? 0, background);
    const url = `${target.server.baseUrl}${plan.path}`;
    // Lighthouse itself asks for another run when its trace of the load is broken (NO_NAVSTART…).
    let outcome: LighthouseRun;
    try {
      outcome = await runLighthouse(url, target.port, formFactor, plan.signedIn);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError)) throw error;
      outcome = await runLighthouse(url, target.port, formFactor, plan.signedIn);
    }
    runs.push(outcome);
  }
  return { runs, busiest };
}

async function lighthouseRuns(
  ctx: FirstPageContext,
  server: RunningServer,
  result: FirstPageResult,
  fail: (step: string, prefix: string, error: unknown) => void,
): Promise<void> {
  const { board } = result;
  let chrome: LaunchedChrome;
  try {
    chrome = await launchChrome({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  } catch (error) {
    fail('launching Chromium for Lighthouse', 'first.', error);
    return;
  }
  // A second client on the same browser signs in and empties the HTTP cache between runs.
  let browser: Browser | null = null;
  try {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default browser context');
    const target: LighthouseTarget = { port: chrome.port, context, helper: null, server };
    // The signed-out pages first: their runs reset the origin's storage.
    const pages = [...FIRST_PAGE_PLAN.pages].sort((a, b) => Number(a.signedIn) - Number(b.signedIn));
    for (const plan of pages) {
      const prefix = `first.${plan.key}.lh.`;
      try {
        if (plan.signedIn && !target.helper) {
          target.helper = await context.newPage();
          await signInThroughForm(target.helper, server.baseUrl);
        }
        for (const formFactor of FIRST_PAGE_PLAN.formFactors) {
          const { runs, busiest } = await runsOnPage(ctx, target, plan, formFactor);
          result.lighthouse[plan.key] = { ...result.lighthouse[plan.key], [formFactor]: runs };
          result.backgroundCores[plan.key] = Math.max(result.backgroundCores[plan.key] ?? 0, busiest ?? 0);
          const noisy =
            busiest !== null && busiest >= NOISY_CORES
              ? `⚠ other processes used up to ${busiest.toFixed(2)} cores before a run: score unreliable`
              : null;
          const performanceNote = [lighthouseNote(runs, 'performance'), noisy].filter(Boolean).join('; ');
          board.set(
            `${prefix}${formFactor}.performance`,
            medianOf(runs, (run) => run.performance),
            { note: performanceNote },
          );
          if (formFactor === 'mobile') {
            const accessibilityNote = lighthouseNote(runs, 'accessibility');
            board.set(
              `${prefix}mobile.accessibility`,
              medianOf(runs, (run) => run.accessibility),
              { note: accessibilityNote },
            );
          }
        }
      } catch (error) {
        fail(`Lighthouse on the ${plan.title} page`, prefix, error);
      }
    }
  } catch (error) {
    fail('Lighthouse', 'first.', error);
  } finally {
    await browser?.close().catch(() => undefined);
    chrome.kill();
  }
}
