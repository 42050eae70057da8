import { NOISY_CORES, waitForQuiet, watchCpu } from './cpu.js';
import { type LoadFigures, type LoadOptions, loadProblem, runLoad } from './load.js';
import { type RunningServer, type StartOptions, startServer } from './server.js';

/** The two database engines a suite can run on. */
export type Engine = 'embedded' | 'postgres';

/** What the runner lends each suite: its starts, its loads and its bookkeeping. */
export type SuiteContext = {
  progress: (message: string) => void;
  recordError: (step: string, message: string) => void;
  timedStart: (options: StartOptions) => Promise<{ server: RunningServer; otherCores: number | null }>;
  measureLoad: (
    key: string,
    server: RunningServer,
    options: Omit<LoadOptions, 'title' | 'server'>,
  ) => Promise<{ figures: LoadFigures; problem: string | null; noise: string | undefined }>;
  quiet: (what: string, serverPid?: number) => Promise<void>;
  noise: (key: string, otherCores: number | null) => string | undefined;
  /** Registers a scratch database to drop should the run be interrupted (`live` false once dropped). */
  trackDatabase: (name: string, live: boolean) => void;
};

/** What the runner keeps of the suites' work for the report and for an interrupted run. */
export type RunRecord = {
  loads: Record<string, LoadFigures>;
  /** Cores other processes used during each measurement (a shared machine skews figures). */
  backgroundCores: Record<string, number | null>;
  errors: { step: string; message: string }[];
  /** Scratch databases an interrupted run must still drop. */
  databases: Set<string>;
};

/** The context every suite runs in, and the record it fills. */
export function createSuiteContext({ quietWaitMs }: { quietWaitMs: number }): { ctx: SuiteContext; record: RunRecord } {
  const record: RunRecord = { loads: {}, backgroundCores: {}, errors: [], databases: new Set() };

  const progress = (message: string) => console.info(`· ${message}`);

  /** Waits briefly for a quiet machine before a measurement. */
  async function quiet(what: string, serverPid?: number) {
    const background = await waitForQuiet({ maxWaitMs: quietWaitMs, serverPid });
    if (background !== null && background >= NOISY_CORES) {
      progress(`  (other processes still use ${background.toFixed(2)} cores; measuring ${what} anyway)`);
    }
  }

  /** A note for a figure measured while other processes kept the machine busy. */
  function noise(key: string, otherCores: number | null): string | undefined {
    record.backgroundCores[key] = otherCores;
    if (otherCores === null || otherCores < NOISY_CORES) return undefined;
    return `⚠ other processes used ${otherCores.toFixed(2)} cores meanwhile: figure unreliable`;
  }

  /** Starts a server and tells how busy the rest of the machine was while it started. */
  async function timedStart(options: StartOptions): Promise<{ server: RunningServer; otherCores: number | null }> {
    await quiet(options.label);
    const stopWatch = watchCpu();
    const server = await startServer(options);
    const share = stopWatch();
    const serverCores = (server.cpuSeconds() ?? 0) / share.seconds;
    const otherCores = share.otherCores === null ? null : Math.max(0, share.otherCores - serverCores);
    return { server, otherCores };
  }

  /** Runs one load after a wait for a quiet machine, and keeps its figures. */
  async function measureLoad(key: string, server: RunningServer, options: Omit<LoadOptions, 'title' | 'server'>) {
    await quiet(key, server.pid);
    const figures = await runLoad({ ...options, title: key, server });
    record.loads[key] = figures;
    return { figures, problem: loadProblem(figures), noise: noise(key, figures.otherCores) };
  }

  const ctx: SuiteContext = {
    progress,
    recordError: (step, message) => record.errors.push({ step, message }),
    timedStart,
    measureLoad,
    quiet,
    noise,
    trackDatabase: (name, live) => {
      if (live) record.databases.add(name);
      else record.databases.delete(name);
    },
  };
  return { ctx, record };
}
