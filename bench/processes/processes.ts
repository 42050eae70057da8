/**
 * Section 10 of the benchmarks: several server processes behind a load balancer. On one scratch
 * PostgreSQL database and one Redis (a redis-server of its own), the same sign-in and bearer-read
 * loads run through HAProxy against one server process, then against two, and the ratio of the
 * two figures is reported. Needs `haproxy` (Debian package haproxy) and `redis-server`; without
 * haproxy the section prints a SKIP line and measures nothing.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { processCpuSeconds } from '../lib/cpu.js';
import { DEMO_ACCOUNT, getOk, issueToken, signIn } from '../lib/http.js';
import { type LoadFigures, type LoadOptions, loadProblem, runLoad } from '../lib/load.js';
import { backendPids, createScratchDatabase, dropScratchDatabase } from '../lib/postgres.js';
import { formatNumber, pad } from '../lib/report.js';
import { freePort, HOST, type RunningServer } from '../lib/server.js';
import { median, sleep } from '../lib/stats.js';
import type { SuiteContext } from '../lib/suite.js';

export const PROCESSES_PLAN = {
  /** The loads of sections 1 and 3, sent to the balancer instead of a server. */
  signIn: { connections: 4, seconds: 8, warmup: 1 },
  read: { connections: 10, seconds: 10, warmup: 2 },
  /**
   * One process, then two, this many times over (one, two, one, two): a machine whose background
   * load drifts during the run weighs on both sides alike. Figures are the medians of the rounds.
   */
  rounds: 2,
  startTimeoutMs: 120_000,
  /** Longest wait for the balancer, or Redis, to answer after it was started. */
  readyTimeoutMs: 10_000,
  /** Hard stop for the section: two starts, eight loads of about ten seconds each. */
  watchdogMs: 8 * 60_000,
} as const;

type Shape = 'one' | 'two';
type LoadKind = 'signIn' | 'read';

/** Cores each part used during one measured run (1.0 = one core busy all the time). */
export type CoreShares = {
  servers: number[];
  balancer: number | null;
  postgres: number | null;
  redis: number | null;
  loader: number;
  other: number | null;
};

export type ProcessesRun = {
  shape: Shape;
  round: number;
  kind: LoadKind;
  figures: LoadFigures;
  cores: CoreShares;
  problem: string | null;
  noise: string | undefined;
};

export type ProcessesResult =
  | { status: 'skipped'; reason: string }
  | { status: 'error'; message: string; runs: ProcessesRun[] }
  | {
      status: 'measured';
      balancer: string;
      postgres: string;
      runs: ProcessesRun[];
      /** Two processes' successful answers per second ÷ one process's (medians of the rounds), per load. */
      ratios: Record<LoadKind, number | null>;
    };

/** Children this section started besides the servers (balancer, Redis); killed on any way out. */
const helpers = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of helpers) child.kill('SIGKILL');
});

/** The first line `<command> <versionFlag>` prints, or null when the command is not installed. */
function versionOf(command: string, versionFlag: string): string | null {
  const result = spawnSync(command, [versionFlag], { encoding: 'utf8' });
  if (result.error) return null;
  return `${result.stdout}${result.stderr}`.trim().split('\n', 1)[0] ?? command;
}

/** Spawns a helper process; its output is kept for the error message should it fail. */
function spawnHelper(command: string, args: string[]) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  helpers.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => helpers.delete(child));
  return {
    child,
    output: () => output,
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]))) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
type Helper = ReturnType<typeof spawnHelper>;

/** Polls `isReady` until it holds; fails when the helper exits or `timeoutMs` passes. */
async function waitUntil(what: string, helper: Helper, isReady: () => Promise<boolean>) {
  const deadline = performance.now() + PROCESSES_PLAN.readyTimeoutMs;
  for (;;) {
    if (helper.hasExited()) throw new Error(`${what} exited:\n${helper.output()}`);
    if (await isReady()) return;
    if (performance.now() > deadline) throw new Error(`${what} did not answer within ${PROCESSES_PLAN.readyTimeoutMs / 1000} s`);
    await sleep(20);
  }
}

function answersPong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

function answersReady(origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${origin}/readyz`, { agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/** A Redis server of this run's own, in memory only. */
async function startRedis(): Promise<Helper & { url: string }> {
  const port = await freePort();
  const redis = spawnHelper('redis-server', ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no']);
  await waitUntil('redis-server', redis, () => answersPong(port));
  return { ...redis, url: `redis://${HOST}:${port}` };
}

/**
 * HAProxy in front of `servers`: HTTP mode, round robin per request, health checks on /readyz,
 * the client's address in X-Forwarded-For (the servers trust it from TRUSTED_PROXIES). One thread:
 * it shares the machine's two cores with everything it measures.
 */
async function startBalancer(configFile: string, port: number, servers: RunningServer[]): Promise<Helper> {
  const config = [
    'global',
    '  nbthread 1',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    'frontend patientsim',
    `  bind ${HOST}:${port}`,
    '  default_backend servers',
    'backend servers',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    ...servers.map((server, index) => `  server app${index + 1} ${HOST}:${server.port} check inter 2s`),
    '',
  ].join('\n');
  writeFileSync(configFile, config);
  const balancer = spawnHelper('haproxy', ['-db', '-f', configFile]);
  await waitUntil('haproxy', balancer, () => answersReady(`http://${HOST}:${port}`));
  return balancer;
}

const LOAD_LABELS: Record<LoadKind, string> = {
  signIn: `sign-in, POST /api/users/auth/sign-in (c=${PROCESSES_PLAN.signIn.connections})`,
  read: `bearer read, GET …/users/{id}/groups (c=${PROCESSES_PLAN.read.connections})`,
};

/** Runs the section; never throws (a crash is recorded and reported as ERROR). */
export async function processesSuite({ ctx, tmpRoot }: { ctx: SuiteContext; tmpRoot: string }): Promise<ProcessesResult> {
  const haproxyVersion = versionOf('haproxy', '-v');
  if (!haproxyVersion) {
    const reason = 'haproxy not installed (Debian package haproxy)';
    ctx.progress(`SKIP: ${reason}`);
    return { status: 'skipped', reason };
  }
  const haproxy = `HAProxy ${/version (\S+)/.exec(haproxyVersion)?.[1] ?? ''}`.trim();
  const runs: ProcessesRun[] = [];
  const stops: Array<() => Promise<unknown>> = [];
  let databaseName: string | null = null;
  try {
    if (!versionOf('redis-server', '--version')) throw new Error('redis-server not installed (Debian package redis-server)');
    const database = await createScratchDatabase();
    databaseName = database.name;
    ctx.trackDatabase(database.name, true);
    const redis = await startRedis();
    stops.push(redis.stop);

    const balancerPort = await freePort();
    const balancerOrigin = `http://${HOST}:${balancerPort}`;
    // Every server answers for the balancer's origin (token issuer, e-mail links, same-origin checks).
    const env = {
      REDIS_URL: redis.url,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_URL: balancerOrigin,
      TRUSTED_PROXIES: HOST,
    };
    const servers: RunningServer[] = [];
    const startProcess = async (index: number) => {
      ctx.progress(`several processes: server ${index} on PostgreSQL ${database.serverVersion} and Redis`);
      const { server } = await ctx.timedStart({
        label: `server ${index} of several`,
        dataDir: path.join(tmpRoot, `processes-${index}`),
        databaseUrl: database.url,
        env,
        timeoutMs: PROCESSES_PLAN.startTimeoutMs,
      });
      servers.push(server);
      stops.push(server.stop);
    };

    /** Both loads through `balancer`, in front of `behind` (the other servers idle meanwhile). */
    const measure = async (shape: Shape, round: number, balancer: Helper, behind: RunningServer[]) => {
      const account = await signIn(balancerOrigin, DEMO_ACCOUNT);
      const token = await issueToken(balancerOrigin, account.cookie);
      const readUrl = `${balancerOrigin}/api/users/extension/users/${encodeURIComponent(account.userId)}/groups`;
      const headers = { authorization: `Bearer ${token.idToken}` };
      await getOk(readUrl, headers);
      const loads: Record<
        LoadKind,
        {
          plan: { connections: number; seconds: number; warmup: number };
          options: Omit<LoadOptions, 'title' | 'connections' | 'durationSeconds'>;
        }
      > = {
        signIn: {
          plan: PROCESSES_PLAN.signIn,
          options: {
            url: `${balancerOrigin}/api/users/auth/sign-in`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(DEMO_ACCOUNT),
          },
        },
        read: { plan: PROCESSES_PLAN.read, options: { url: readUrl, headers } },
      };
      for (const kind of ['signIn', 'read'] as const) {
        const { plan, options } = loads[kind];
        const key = `processes.${shape}.${kind}.${round}`;
        ctx.progress(
          `several processes (${shape}, round ${round}): ${LOAD_LABELS[kind]} for ${plan.seconds} s through the balancer`,
        );
        await ctx.quiet(key);
        await runLoad({ ...options, title: `${key} warm-up`, connections: plan.connections, durationSeconds: plan.warmup });
        const postgresPids = await backendPids(database.name);
        const parts = { servers: behind.map((server) => server.pid), balancer: balancer.child.pid, redis: redis.child.pid };
        const cpuOf = (pids: readonly (number | undefined)[]) => {
          let seconds = 0;
          for (const pid of pids) seconds += (pid === undefined ? null : processCpuSeconds(pid)) ?? 0;
          return seconds;
        };
        const before = {
          servers: parts.servers.map((pid) => cpuOf([pid])),
          balancer: cpuOf([parts.balancer]),
          redis: cpuOf([parts.redis]),
          postgres: cpuOf(postgresPids),
        };
        const startedAt = performance.now();
        const figures = await runLoad({
          ...options,
          title: key,
          connections: plan.connections,
          durationSeconds: plan.seconds,
          // The first server's CPU is the load's "server"; everything else this section started
          // counts with the database, so that "other" is only what the rest of the machine used.
          server: servers[0]!,
          databasePids: async () => [
            ...servers.slice(1).map((server) => server.pid),
            ...[parts.balancer, parts.redis].filter((pid): pid is number => pid !== undefined),
            ...postgresPids,
          ],
        });
        const seconds = (performance.now() - startedAt) / 1000;
        const share = (after: number, previous: number) => Math.max(0, after - previous) / seconds;
        const cores: CoreShares = {
          servers: parts.servers.map((pid, index) => share(cpuOf([pid]), before.servers[index] ?? 0)),
          balancer: share(cpuOf([parts.balancer]), before.balancer),
          redis: share(cpuOf([parts.redis]), before.redis),
          postgres: share(cpuOf(postgresPids), before.postgres),
          loader: figures.loaderCores,
          other: figures.otherCores,
        };
        runs.push({
          shape,
          round,
          kind,
          figures,
          cores,
          problem: loadProblem(figures),
          noise: ctx.noise(key, figures.otherCores),
        });
      }
    };

    // The first migrates and seeds the empty database; the second starts on it once it is ready.
    await startProcess(1);
    await startProcess(2);
    const configFile = path.join(tmpRoot, 'haproxy.cfg');
    for (let round = 1; round <= PROCESSES_PLAN.rounds; round += 1) {
      for (const shape of ['one', 'two'] as const) {
        const behind = servers.slice(0, shape === 'one' ? 1 : 2);
        const balancer = await startBalancer(configFile, balancerPort, behind);
        try {
          await measure(shape, round, balancer, behind);
        } finally {
          await balancer.stop();
        }
      }
    }

    const ratio = (kind: LoadKind) => {
      const one = medianRate(runs, 'one', kind);
      const two = medianRate(runs, 'two', kind);
      return one !== null && two !== null && one > 0 ? two / one : null;
    };
    return {
      status: 'measured',
      balancer: haproxy,
      postgres: database.serverVersion,
      runs,
      ratios: { signIn: ratio('signIn'), read: ratio('read') },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.recordError('several processes', message);
    console.error(`✗ several processes failed: ${message}`);
    return { status: 'error', message, runs };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    if (databaseName) {
      await dropScratchDatabase(databaseName).catch((error: unknown) =>
        ctx.recordError('drop the several-processes database', error instanceof Error ? error.message : String(error)),
      );
      ctx.trackDatabase(databaseName, false);
    }
  }
}

/** The median over the rounds of the successful answers per second of one load on one shape. */
function medianRate(runs: readonly ProcessesRun[], shape: Shape, kind: LoadKind): number | null {
  const rates = runs.filter((run) => run.shape === shape && run.kind === kind).map((run) => run.figures.okPerSecond);
  return rates.length > 0 ? median(rates) : null;
}

/** The section's table: each load on one and on two processes, their ratio, and who used the CPU. */
export function renderProcesses(result: ProcessesResult): string {
  const title = '10. several processes behind a load balancer';
  if (result.status === 'skipped') return `${title}\n  SKIP: ${result.reason}`;
  const cores = (value: number | null) => (value === null ? '?' : value.toFixed(2));
  const digits = (kind: LoadKind) => (kind === 'signIn' ? 1 : 0);
  const runsOf = (shape: Shape, kind: LoadKind) => result.runs.filter((run) => run.shape === shape && run.kind === kind);
  const rate = (shape: Shape, kind: LoadKind) => {
    const value = medianRate(result.runs, shape, kind);
    const isInvalid = runsOf(shape, kind).some((run) => run.problem);
    return value === null ? '—' : `${formatNumber(value, digits(kind))} /s${isInvalid ? ' (invalid)' : ''}`;
  };
  const each = (shape: Shape, kind: LoadKind) =>
    runsOf(shape, kind)
      .map((run) => formatNumber(run.figures.okPerSecond, digits(kind)))
      .join(', ') || '—';
  const p99 = (shape: Shape, kind: LoadKind) => {
    const values = runsOf(shape, kind).map((run) => run.figures.latencyMs.p99);
    return values.length > 0 ? String(median(values)) : '—';
  };
  const out = [
    result.status === 'measured'
      ? `${title} — ${result.balancer} (round robin, one thread), PostgreSQL ${result.postgres.split(' ', 1)[0]}, ` +
        `a Redis of its own; autocannon through the balancer, ${PROCESSES_PLAN.signIn.seconds} s and ${PROCESSES_PLAN.read.seconds} s ` +
        `after a warm-up; one, then two processes, ${PROCESSES_PLAN.rounds} times over; medians of the rounds`
      : `${title} — ERROR: ${result.message.split('\n', 1)[0]}`,
  ];
  const header = ['load', 'one process', 'two processes', 'two ÷ one', 'each round (one; two)', 'p99 ms (one, two)'];
  const rows = (['signIn', 'read'] as const).map((kind) => {
    const ratio = result.status === 'measured' ? result.ratios[kind] : null;
    return [
      LOAD_LABELS[kind],
      rate('one', kind),
      rate('two', kind),
      ratio === null ? '—' : ratio.toFixed(2),
      `${each('one', kind)}; ${each('two', kind)}`,
      `${p99('one', kind)}, ${p99('two', kind)}`,
    ];
  });
  const widths = header.map((text, column) => Math.max([...text].length, ...rows.map((cells) => [...cells[column]!].length)));
  const render = (cells: string[]) =>
    `  ${cells.map((text, column) => pad(text, widths[column]!, column > 0 && column < 4)).join('  ')}`.trimEnd();
  out.push(render(header), ...rows.map(render));
  out.push('  cores used during each run:');
  for (const run of result.runs) {
    const servers = run.cores.servers.map((value) => value.toFixed(2)).join(' + ');
    out.push(
      `    round ${run.round}, ${run.shape}, ${run.kind === 'signIn' ? 'sign-in' : 'read'}: servers ${servers}, ` +
        `balancer ${cores(run.cores.balancer)}, PostgreSQL ${cores(run.cores.postgres)}, Redis ${cores(run.cores.redis)}, ` +
        `load generator ${run.cores.loader.toFixed(2)}, other ${cores(run.cores.other)}` +
        `${run.problem ? `; invalid run: ${run.problem}` : ''}${run.noise ? `; ${run.noise}` : ''}`,
    );
  }
  return out.join('\n');
}
