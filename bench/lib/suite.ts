import type { LoadFigures, LoadOptions } from './load.js';
import type { RunningServer, StartOptions } from './server.js';

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
  /** Registers a scratch database to drop should the run be interrupted (null when dropped). */
  trackDatabase: (name: string, live: boolean) => void;
};
