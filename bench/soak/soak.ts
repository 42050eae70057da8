/**
 * The memory soak of the benchmarks (section 9), run only when asked (`npm run bench -- --soak`, not part of CI): a
 * memory soak. One embedded server started on an empty data directory (migrations and the demo
 * seed, as a newcomer's first `npm start`) takes a mixed load for 30 minutes: sign-ins, bearer
 * reads of a user's groups and pages of an organisation's member list, from a few connections
 * without pause. Its resident memory is read every few seconds; after a warm-up, the median of the
 * last samples is compared with the median of the first ones (the drift), and the highest sample
 * with the embedded memory target.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { watchCpu } from '../lib/cpu.js';
import { DEMO_ACCOUNT, getOk, issueToken, signIn } from '../lib/http.js';
import { Scoreboard } from '../lib/report.js';
import type { RunningServer } from '../lib/server.js';
import { median, percentile } from '../lib/stats.js';
import type { SuiteContext } from '../lib/suite.js';

export const SOAK_PLAN = {
  minutes: 30,
  /** One RSS sample (and one load run) every this many seconds. */
  sampleSeconds: 10,
  /** The first sixth of the run (5 of 30 minutes) warms up: caches fill, the heap finds its size. */
  warmupFraction: 1 / 6,
  connections: 4,
  /** The drift compares the medians of the first and the last tenth of the samples after warm-up (at least 3 each). */
  windowFraction: 0.1,
  /** An ID token lasts an hour; a fresh one is taken after this many minutes. */
  tokenRenewalMinutes: 20,
  startTimeoutMs: 180_000,
} as const;

export const SOAK_TARGETS = {
  /** The growth of resident memory from the start to the end of the run after warm-up. */
  driftPercent: 10,
  rssMb: 450,
} as const;

export type SoakOptions = { minutes: number; warmupMinutes: number; sampleSeconds: number };

/** The command-line options of the soak (for node:util parseArgs) and their help. */
export const SOAK_ARGS = {
  soak: { type: 'boolean' },
  'soak-minutes': { type: 'string' },
  'soak-warmup-minutes': { type: 'string' },
  'soak-sample-seconds': { type: 'string' },
} as const;

export const SOAK_USAGE = `  --soak                 section 9 alone (with sections named, after them): ${SOAK_PLAN.minutes} min of mixed
                         load on one embedded server, its memory drift; not part of CI
  --soak-minutes <n>     how long the soak loads (default ${SOAK_PLAN.minutes}; try 2)
  --soak-warmup-minutes <n>  the first part, left out of the drift (default a sixth of the run)
  --soak-sample-seconds <n>  how often RSS is read (default ${SOAK_PLAN.sampleSeconds})`;

/** The soak asked for on the command line, or null without --soak. */
export function soakOptionsFrom(values: Partial<Record<keyof typeof SOAK_ARGS, string | boolean>>): SoakOptions | null {
  const number = (name: Exclude<keyof typeof SOAK_ARGS, 'soak'>, fallback: number, min: number) => {
    const value = values[name];
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < min)
      throw new Error(`--${name} must be a number of at least ${min}, not ${String(value)}`);
    return parsed;
  };
  if (!values.soak) {
    const stray = (['soak-minutes', 'soak-warmup-minutes', 'soak-sample-seconds'] as const).find(
      (name) => values[name] !== undefined,
    );
    if (stray) throw new Error(`--${stray} needs --soak`);
    return null;
  }
  const minutes = number('soak-minutes', SOAK_PLAN.minutes, 0.5);
  const options: SoakOptions = {
    minutes,
    warmupMinutes: number('soak-warmup-minutes', minutes * SOAK_PLAN.warmupFraction, 0),
    sampleSeconds: number('soak-sample-seconds', SOAK_PLAN.sampleSeconds, 1),
  };
  if (options.warmupMinutes >= options.minutes) throw new Error('--soak-warmup-minutes must be shorter than --soak-minutes');
  return options;
}

/** Added to the run's watchdog: the soak, its start and a margin. */
export const soakWatchdogMs = (options: SoakOptions) => options.minutes * 60_000 + SOAK_PLAN.startTimeoutMs + 2 * 60_000;

export type SoakSample = {
  /** Seconds since the load began. */
  atSeconds: number;
  rssMb: number;
  anonMb: number;
  /** Successful answers per second during the load run that ended at this sample (null for the first). */
  okPerSecond: number | null;
  p99Ms: number | null;
  non2xx: number;
  errors: number;
  serverCores: number | null;
  otherCores: number | null;
};

export type SoakResult = {
  options: SoakOptions;
  mix: string;
  samples: SoakSample[];
  statusCodes: Record<string, number>;
  baselineMb: number;
  endMb: number;
  driftPercent: number;
  slopeMbPerMinute: number;
  maxRssMb: number;
  peakRssMb: number | null;
};

const SOAK_SECTION = 9;

/** The report lines of the soak (section 7). */
export function soakLines(options: SoakOptions): ConstructorParameters<typeof Scoreboard>[0] {
  const minutes = `${formatMinutes(options.minutes)} min`;
  return [
    {
      id: 'soak.rss.start',
      section: SOAK_SECTION,
      label: 'RSS at the end of the warm-up, soak (embedded)',
      unit: 'MB',
      digits: 0,
    },
    { id: 'soak.rss.end', section: SOAK_SECTION, label: `RSS at the end of ${minutes} of mixed load`, unit: 'MB', digits: 0 },
    {
      id: 'soak.drift',
      section: SOAK_SECTION,
      label: 'RSS drift after warm-up',
      unit: '%',
      digits: 1,
      target: { op: '<=', value: SOAK_TARGETS.driftPercent },
    },
    { id: 'soak.slope', section: SOAK_SECTION, label: 'RSS trend after warm-up (least squares)', unit: 'MB/min', digits: 2 },
    {
      id: 'soak.rss.max',
      section: SOAK_SECTION,
      label: 'RSS, highest sample of the soak',
      unit: 'MB',
      digits: 0,
      target: { op: '<=', value: SOAK_TARGETS.rssMb },
    },
    { id: 'soak.rate', section: SOAK_SECTION, label: 'mixed load, successful answers', unit: '/s', digits: 0 },
  ];
}

const list = (values: readonly number[]) => values.map((value) => value.toFixed(0)).join(', ');

const formatMinutes = (minutes: number) => (Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1));

/** Least-squares slope of `y` over `x`. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxy = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** The drift figures of the samples taken after `warmupSeconds`. */
export function summariseDrift(samples: readonly SoakSample[], warmupSeconds: number) {
  const after = samples.filter((sample) => sample.atSeconds >= warmupSeconds);
  if (after.length < 2) throw new Error(`only ${after.length} RSS sample(s) after the warm-up: run the soak longer`);
  const window = Math.min(Math.floor(after.length / 2), Math.max(3, Math.round(after.length * SOAK_PLAN.windowFraction)));
  const baselineMb = median(after.slice(0, window).map((sample) => sample.rssMb));
  const endMb = median(after.slice(-window).map((sample) => sample.rssMb));
  return {
    window,
    baselineMb,
    endMb,
    driftPercent: ((endMb - baselineMb) / baselineMb) * 100,
    slopeMbPerMinute: slope(after.map((sample) => ({ x: sample.atSeconds / 60, y: sample.rssMb }))),
  };
}

type MixedRequest = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

/**
 * What each connection sends in turn, over and over: 1 sign-in, 6 bearer reads of the owner's
 * groups and 3 member-list requests of their organisation (two pages and a search).
 */
function mixedRequests({ userId, orgId, idToken }: { userId: string; orgId: string; idToken: string }): MixedRequest[] {
  const bearer = { authorization: `Bearer ${idToken}` };
  const signInRequest: MixedRequest = {
    method: 'POST',
    path: '/api/users/auth/sign-in',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ACCOUNT),
  };
  const groups: MixedRequest = {
    method: 'GET',
    path: `/api/users/extension/users/${encodeURIComponent(userId)}/groups`,
    headers: bearer,
  };
  const members = (query: string): MixedRequest => ({
    method: 'GET',
    path: `/api/users/extension/groups/${encodeURIComponent(orgId)}/members?${query}`,
    headers: bearer,
  });
  return [
    signInRequest,
    groups,
    members('page=1'),
    groups,
    groups,
    members('page=2'),
    groups,
    groups,
    members('search=stud'),
    groups,
  ];
}
export const SOAK_MIX = 'sign-in 1 : bearer GET …/users/{id}/groups 6 : GET …/groups/{org}/members 3 (2 pages, 1 search)';

/** What the load did between two samples. */
class Tally {
  ok = 0;
  non2xx = 0;
  errors = 0;
  latenciesMs: number[] = [];
  readonly statusCodes: Record<string, number> = {};

  response(statusCode: number, ms: number) {
    if (statusCode >= 200 && statusCode < 300) this.ok += 1;
    else this.non2xx += 1;
    this.statusCodes[statusCode] = (this.statusCodes[statusCode] ?? 0) + 1;
    this.latenciesMs.push(ms);
  }

  /** The counts so far; starts the next interval from zero (status codes keep adding up). */
  take() {
    const taken = { ok: this.ok, non2xx: this.non2xx, errors: this.errors, latenciesMs: this.latenciesMs };
    this.ok = 0;
    this.non2xx = 0;
    this.errors = 0;
    this.latenciesMs = [];
    return taken;
  }
}

/** One uninterrupted autocannon run of `seconds`, its answers told to `tally` as they come. */
function fire(
  baseUrl: string,
  requests: MixedRequest[],
  { connections, seconds, tally }: { connections: number; seconds: number; tally: Tally },
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: baseUrl, requests, connections, duration: seconds, timeout: 10 },
      (error: unknown, result) => (error ? reject(new Error('autocannon failed', { cause: error })) : resolve(result)),
    );
    instance.on('response', (_client, statusCode, _bytes, ms) => tally.response(statusCode, ms));
    instance.on('reqError', () => {
      tally.errors += 1;
    });
  });
}

/** Signs the demo owner in and finds their organisation (the demo's Riverside EMS Academy). */
async function prepareLoad(server: RunningServer) {
  const session = await signIn(server.baseUrl);
  const token = await issueToken(server.baseUrl, session.cookie);
  const groups = (await getOk(`${server.baseUrl}/api/users/extension/users/${encodeURIComponent(session.userId)}/groups`, {
    authorization: `Bearer ${token.idToken}`,
  })) as { _id: string; name: string }[];
  const org = groups.find((group) => group.name === 'Riverside EMS Academy') ?? groups[0];
  if (!org) throw new Error(`${DEMO_ACCOUNT.email} belongs to no organisation`);
  return { session, token, orgId: org._id };
}

/** Runs the soak on its own embedded server (data in `tmpRoot`); its lines are on `board`. */
export async function soakSuite({
  ctx,
  tmpRoot,
  options,
}: {
  ctx: Pick<SuiteContext, 'progress' | 'recordError' | 'timedStart' | 'quiet' | 'noise'>;
  tmpRoot: string;
  options: SoakOptions;
}): Promise<{ board: Scoreboard; result: SoakResult | null }> {
  const board = new Scoreboard(soakLines(options));
  return { board, result: (await runSoak(ctx, board, path.join(tmpRoot, 'soak'), options)) ?? null };
}

async function runSoak(
  ctx: Pick<SuiteContext, 'progress' | 'recordError' | 'timedStart' | 'quiet' | 'noise'>,
  board: Scoreboard,
  dataDir: string,
  options: SoakOptions,
): Promise<SoakResult | undefined> {
  try {
    ctx.progress('soak: first start of an embedded server (migrations + demo seed)');
    const { server } = await ctx.timedStart({ label: 'soak server', dataDir, timeoutMs: SOAK_PLAN.startTimeoutMs });
    try {
      return await soak(ctx, board, server, options);
    } finally {
      await server.stop();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.recordError('soak', message);
    console.error(`✗ soak failed: ${message}`);
    board.fail('soak.', 'ERROR', `soak failed: ${message.split('\n', 1)[0]}`);
    return undefined;
  }
}

async function soak(
  ctx: Pick<SuiteContext, 'progress' | 'quiet' | 'noise'>,
  board: Scoreboard,
  server: RunningServer,
  options: SoakOptions,
): Promise<SoakResult> {
  const { session, orgId } = await prepareLoad(server);
  let token = await issueToken(server.baseUrl, session.cookie);
  let tokenAt = performance.now();
  const readMemory = () => {
    const memory = server.memory();
    if (!memory) throw new Error(`could not read /proc/${server.pid}/status`);
    return memory;
  };

  const totalSeconds = options.minutes * 60;
  const warmupSeconds = options.warmupMinutes * 60;
  ctx.progress(
    `soak: ${formatMinutes(options.minutes)} min of mixed load (${SOAK_MIX}), c=${SOAK_PLAN.connections}, ` +
      `RSS every ${options.sampleSeconds} s, warm-up ${formatMinutes(options.warmupMinutes)} min`,
  );
  await ctx.quiet('the soak', server.pid);
  const first = readMemory();
  const samples: SoakSample[] = [
    {
      atSeconds: 0,
      rssMb: first.rssMb,
      anonMb: first.anonMb,
      okPerSecond: null,
      p99Ms: null,
      non2xx: 0,
      errors: 0,
      serverCores: null,
      otherCores: null,
    },
  ];
  const tally = new Tally();
  const startedAt = performance.now();
  const elapsed = () => (performance.now() - startedAt) / 1000;
  let lastReport = 0;
  let stopWatch = watchCpu(server.pid);
  // Set by the sampler (a callback, out of the loop's sight) when it cannot read the server.
  const sampling: { error: Error | null } = { error: null };
  // Every sampleSeconds while the load runs: RSS, and what the load did since the last sample.
  const sampler = setInterval(() => {
    try {
      const cpu = stopWatch();
      stopWatch = watchCpu(server.pid);
      const memory = readMemory();
      const taken = tally.take();
      samples.push({
        atSeconds: elapsed(),
        rssMb: memory.rssMb,
        anonMb: memory.anonMb,
        okPerSecond: taken.ok / cpu.seconds,
        p99Ms: taken.latenciesMs.length > 0 ? percentile(taken.latenciesMs, 99) : null,
        non2xx: taken.non2xx,
        errors: taken.errors,
        serverCores: cpu.serverCores,
        otherCores: cpu.otherCores,
      });
      if (elapsed() - lastReport >= 60) {
        lastReport = elapsed();
        const recent = samples.slice(-Math.max(1, Math.round(60 / options.sampleSeconds)));
        const failed = recent.reduce((sum, sample) => sum + sample.non2xx + sample.errors, 0);
        ctx.progress(
          `soak: ${formatMinutes(elapsed() / 60)}/${formatMinutes(options.minutes)} min, RSS ${memory.rssMb.toFixed(0)} MB, ` +
            `${median(recent.map((sample) => sample.okPerSecond ?? 0)).toFixed(0)} ok/s` +
            (failed > 0 ? `, ${failed} non-2xx answers or errors in the last minute` : ''),
        );
      }
    } catch (error) {
      sampling.error = error instanceof Error ? error : new Error(String(error));
    }
  }, options.sampleSeconds * 1000);
  try {
    // The load runs without a break, except to take a fresh ID token every tokenRenewalMinutes.
    while (elapsed() < totalSeconds - 0.5 && sampling.error === null) {
      if ((performance.now() - tokenAt) / 60_000 >= SOAK_PLAN.tokenRenewalMinutes) {
        token = await issueToken(server.baseUrl, session.cookie);
        tokenAt = performance.now();
      }
      const seconds = Math.max(1, Math.round(Math.min(SOAK_PLAN.tokenRenewalMinutes * 60, totalSeconds - elapsed())));
      await fire(server.baseUrl, mixedRequests({ userId: session.userId, orgId, idToken: token.idToken }), {
        connections: SOAK_PLAN.connections,
        seconds,
        tally,
      });
    }
  } finally {
    clearInterval(sampler);
  }
  if (sampling.error) throw sampling.error;
  const statusCodes = tally.statusCodes;

  const drift = summariseDrift(samples, warmupSeconds);
  const after = samples.filter((sample) => sample.atSeconds >= warmupSeconds);
  const max = samples.reduce((highest, sample) => (sample.rssMb > highest.rssMb ? sample : highest));
  const non2xx = samples.reduce((sum, sample) => sum + sample.non2xx, 0);
  const errors = samples.reduce((sum, sample) => sum + sample.errors, 0);
  const problem = non2xx > 0 || errors > 0 ? `${non2xx} non-2xx answers ${JSON.stringify(statusCodes)}, ${errors} errors` : null;
  const others = after.map((sample) => sample.otherCores ?? 0);
  const noisy = ctx.noise('soak', median(others));
  const windowNote = `median of the ${drift.window} samples`;

  board.set('soak.rss.start', drift.baselineMb, {
    note: `${windowNote} after ${formatMinutes(options.warmupMinutes)} min; ${first.rssMb.toFixed(0)} MB before the load`,
  });
  board.set('soak.rss.end', drift.endMb, { note: `${windowNote} before the end` });
  board.set('soak.drift', drift.driftPercent, {
    problem,
    note: [`${after.length} samples after warm-up, every ${options.sampleSeconds} s`, noisy].filter(Boolean).join('; '),
  });
  board.set('soak.slope', drift.slopeMbPerMinute);
  const peak = server.memory()?.peakRssMb ?? null;
  board.set('soak.rss.max', max.rssMb, {
    problem,
    note: `at ${formatMinutes(max.atSeconds / 60)} min${peak === null ? '' : `; the process's peak (VmHWM) ${peak.toFixed(0)} MB`}`,
  });
  const loaded = after.filter((sample) => sample.okPerSecond !== null);
  const rates = loaded.map((sample) => sample.okPerSecond ?? 0);
  const p99s = loaded.map((sample) => sample.p99Ms ?? 0);
  board.set('soak.rate', median(rates), {
    problem,
    note:
      `median of the ${options.sampleSeconds}-s intervals after warm-up; ` +
      `the first ${list(rates.slice(0, drift.window))}, the last ${list(rates.slice(-drift.window))}; ` +
      `p99 latency of each interval: median ${median(p99s).toFixed(1)} ms, highest ${percentile(p99s, 100).toFixed(1)} ms`,
  });

  return {
    options,
    mix: SOAK_MIX,
    samples,
    statusCodes,
    baselineMb: drift.baselineMb,
    endMb: drift.endMb,
    driftPercent: drift.driftPercent,
    slopeMbPerMinute: drift.slopeMbPerMinute,
    maxRssMb: max.rssMb,
    peakRssMb: peak,
  };
}

/** RSS once a minute (the sample closest to each whole minute), for the printed report. */
export function renderSoak(result: SoakResult): string {
  const byMinute: string[] = [];
  for (let minute = 0; minute <= Math.floor(result.samples.at(-1)!.atSeconds / 60); minute += 1) {
    const closest = result.samples.reduce((best, sample) =>
      Math.abs(sample.atSeconds - minute * 60) < Math.abs(best.atSeconds - minute * 60) ? sample : best,
    );
    byMinute.push(`${minute}′ ${closest.rssMb.toFixed(0)}`);
  }
  return [
    `soak (embedded, first start; ${result.mix}; c=${SOAK_PLAN.connections}):`,
    `  RSS (MB) by minute: ${byMinute.join(', ')}`,
  ].join('\n');
}
