import autocannon from 'autocannon';
import { watchCpu } from './cpu.js';
import type { RunningServer } from './server.js';
import { percentile } from './stats.js';

export type LoadOptions = {
  title: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Paths (with query) on the URL's origin that each connection requests in turn, starting over
   * at the end; without them every request goes to `url`.
   */
  paths?: readonly string[];
  connections: number;
  durationSeconds: number;
  /** A short unmeasured run first, so the figures are of a warmed-up process. */
  warmupSeconds?: number;
  /** The server under load, to report how much CPU it used. */
  server?: RunningServer;
  /** Processes of a local database server working for the server under load (asked after the warm-up). */
  databasePids?: () => Promise<number[]>;
};

export type LoadFigures = {
  title: string;
  connections: number;
  durationSeconds: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Successful (2xx) answers per second over the whole run. */
  okPerSecond: number;
  /** autocannon's per-second samples of all answers. */
  reqPerSecondAverage: number;
  reqPerSecondMedian: number;
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  /** Nearest-rank percentiles of every measured response's own time (autocannon rounds its histogram to whole ms). */
  responseMs: { count: number; p50: number; p95: number; p99: number; max: number };
  /** Server CPU use during the run, in cores (1.0 = one core busy all the time). */
  serverCores: number | null;
  /** CPU use of this process (the load generator) during the run, in cores. */
  loaderCores: number;
  /** CPU use of the local database server's processes for this server, in cores (PostgreSQL only). */
  databaseCores: number | null;
  /** CPU use of everything else on the machine during the run, in cores. */
  otherCores: number | null;
  /** Server RSS right after the run. */
  rssAfterMb: number | null;
};

/** One autocannon run; `onResponse` hears the time of every answer (in ms). */
function fire(options: LoadOptions, seconds: number, onResponse?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        title: options.title,
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.paths ? { requests: options.paths.map((path) => ({ path })) } : {}),
        connections: options.connections,
        duration: seconds,
        timeout: 10,
      },
      (error: unknown, result) => (error ? reject(new Error('autocannon failed', { cause: error })) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, _statusCode, _bytes, responseTime) => onResponse(responseTime));
  });
}

/** Runs autocannon against one endpoint (after an optional warm-up) and condenses its result. */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  if (options.warmupSeconds) await fire(options, options.warmupSeconds);
  const databasePids = options.databasePids ? await options.databasePids() : [];
  const stopWatch = watchCpu(options.server?.pid, databasePids);
  const responseTimes: number[] = [];
  const result = await fire(options, options.durationSeconds, (ms) => responseTimes.push(ms));
  const cpu = stopWatch();
  const seconds = result.duration || options.durationSeconds;

  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;

  return {
    title: options.title,
    connections: options.connections,
    durationSeconds: seconds,
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    okPerSecond: result['2xx'] / seconds,
    reqPerSecondAverage: result.requests.average,
    reqPerSecondMedian: result.requests.p50,
    latencyMs: {
      average: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    responseMs: {
      count: responseTimes.length,
      p50: percentile(responseTimes, 50),
      p95: percentile(responseTimes, 95),
      p99: percentile(responseTimes, 99),
      max: responseTimes.reduce((max, value) => Math.max(max, value), 0),
    },
    serverCores: cpu.serverCores,
    loaderCores: cpu.benchCores,
    databaseCores: cpu.databaseCores,
    otherCores: cpu.otherCores,
    rssAfterMb: options.server?.memory()?.rssMb ?? null,
  };
}

/** A load run whose answers were not all 2xx measured something else than intended. */
export function loadProblem(figures: LoadFigures): string | null {
  if (figures.ok === 0) return `no 2xx answers (status codes ${JSON.stringify(figures.statusCodes)}, errors ${figures.errors})`;
  if (figures.non2xx > 0 || figures.errors > 0) {
    return `${figures.non2xx} non-2xx answers ${JSON.stringify(figures.statusCodes)}, ${figures.errors} errors (${figures.timeouts} timeouts)`;
  }
  return null;
}

/** The block of every load run, for the end of the report. */
export function renderLoads(loads: Record<string, LoadFigures>): string {
  const keyWidth = Math.max(15, ...Object.keys(loads).map((key) => key.length));
  const rows = Object.entries(loads).map(([key, f]) =>
    [
      key.padEnd(keyWidth),
      `c=${String(f.connections).padEnd(3)}`,
      `${f.durationSeconds.toFixed(1)} s`.padStart(6),
      `${f.okPerSecond.toFixed(0)} ok/s`.padStart(10),
      `(samples mean ${f.reqPerSecondAverage.toFixed(0)}, median ${f.reqPerSecondMedian.toFixed(0)})`.padEnd(31),
      `latency p50 ${f.latencyMs.p50} p99 ${f.latencyMs.p99} max ${f.latencyMs.max} ms`.padEnd(34),
      `non-2xx ${f.non2xx}`.padEnd(10),
      `cores: server ${f.serverCores?.toFixed(2) ?? '?'}${f.databaseCores === null ? '' : `, PostgreSQL ${f.databaseCores.toFixed(2)}`}, ` +
        `loader ${f.loaderCores.toFixed(2)}, other ${f.otherCores?.toFixed(2) ?? '?'}`,
      `RSS after ${f.rssAfterMb?.toFixed(0) ?? '?'} MB`,
    ].join(' '),
  );
  return rows.length > 0 ? ['load runs (autocannon):', ...rows.map((row) => `  ${row}`)].join('\n') : '';
}
