/**
 * Section 8 of the benchmarks: sign-in under overload (decision 0018). On the embedded engine it
 *   1. steps the number of concurrent sign-ins up (closed loop: each connection sends its next
 *      sign-in when the last one is answered), doubling it until two doublings in a row add less
 *      than a tenth each to the successful sign-ins per second; the smallest concurrency within a
 *      tenth of the best saturates the server;
 *   2. runs twice that concurrency, closed loop;
 *   3. runs twice the saturated rate, open loop: sign-ins arrive on a fixed schedule whatever the
 *      server answers, as people do; without load shedding the backlog grows without end.
 * It prints the answers by status, the p99 of the accepted sign-ins, and the longest answer against
 * the 10 s limit (a request unanswered after 10 s is counted as a timeout and abandoned).
 */
import http from 'node:http';
import path from 'node:path';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../apps/server/src/seed/demo/accounts.js';
import { NOISY_CORES, watchCpu } from '../lib/cpu.js';
import { signIn } from '../lib/http.js';
import { formatNumber, pad } from '../lib/report.js';
import type { RunningServer } from '../lib/server.js';
import { percentile } from '../lib/stats.js';
import type { SuiteContext } from '../lib/suite.js';

export const OVERLOAD_PLAN = {
  /** Concurrent sign-ins tried in turn, each for `stepSeconds`, until the server saturates. */
  steps: [1, 2, 4, 8, 16, 32, 64],
  stepSeconds: 4,
  warmupSeconds: 1,
  /** A doubling of concurrency that adds less than this share of sign-ins per second: saturated. */
  saturationGain: 0.1,
  overloadSeconds: 10,
  /** An answer slower than this is a timeout: the request is abandoned and counted as such. */
  timeoutMs: 10_000,
  startTimeoutMs: 120_000,
  /** Hard stop for the section, server included. */
  watchdogMs: 6 * 60_000,
} as const;

export const OVERLOAD_TARGETS = {
  /** No answer, accepted or refused, takes longer. */
  maxLatencyMs: 10_000,
} as const;

/** What one request ended with: an HTTP status, or no answer within the timeout, or a broken connection. */
type Outcome = { status: number | 'timeout' | 'error'; ms: number; isShed: boolean; hasRetryAfter: boolean };

export type OverloadRun = {
  label: string;
  mode: 'closed' | 'open';
  /** Connections (closed loop) or sign-ins sent per second (open loop). */
  load: number;
  seconds: number;
  sent: number;
  /** Answers by HTTP status, plus `timeout` and `error`. */
  byStatus: Record<string, number>;
  acceptedPerSecond: number;
  accepted: { p50: number; p99: number; max: number } | null;
  /** 503 SERVER_BUSY answers, and how fast they came. */
  shed: { count: number; p99: number; max: number; withoutRetryAfter: number };
  /** 5xx answers that were not a load shed, plus timeouts and broken connections. */
  failures: number;
  /** The longest any request took (a timeout counts as the limit). */
  maxMs: number;
  serverCores: number | null;
  loaderCores: number;
  otherCores: number | null;
};

export type OverloadResult = {
  accounts: number;
  steps: OverloadRun[];
  saturation: { connections: number; acceptedPerSecond: number } | null;
  overload: OverloadRun[];
  verdicts: { run: string; verdict: 'MEET' | 'MISS'; why: string }[];
};

/** Every demo account that can sign in; sign-ins take them in turn, so none is signed into many times at once. */
function signInBodies(): string[] {
  return DEMO_ACCOUNTS.filter((account) => account.emailVerified !== false).map((account) =>
    JSON.stringify({ email: account.email, password: DEMO_PASSWORD }),
  );
}

/** A sign-in client over keep-alive connections, with no cap on connections (an open loop needs one per request in flight). */
function createSignInClient(server: RunningServer, bodies: readonly string[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let next = 0;
  const send = (): Promise<Outcome> =>
    new Promise((resolve) => {
      const body = bodies[next++ % bodies.length]!;
      const started = performance.now();
      let settled = false;
      const finish = (outcome: Omit<Outcome, 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, ms: performance.now() - started });
      };
      const request = http.request(
        {
          agent,
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/users/auth/sign-in',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            let code: unknown;
            if (status === 503) {
              try {
                code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: unknown }).code;
              } catch {
                code = undefined;
              }
            }
            finish({ status, isShed: code === 'SERVER_BUSY', hasRetryAfter: response.headers['retry-after'] !== undefined });
          });
          response.on('error', () => finish({ status: 'error', isShed: false, hasRetryAfter: false }));
        },
      );
      const timer = setTimeout(() => {
        finish({ status: 'timeout', isShed: false, hasRetryAfter: false });
        request.destroy();
      }, OVERLOAD_PLAN.timeoutMs);
      request.on('error', () => finish({ status: 'error', isShed: false, hasRetryAfter: false }));
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}

type Client = ReturnType<typeof createSignInClient>;

/** `connections` loops, each sending its next sign-in once the last is answered, for `seconds`. */
async function closedLoop(client: Client, connections: number, seconds: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) outcomes.push(await client.send());
    }),
  );
  return outcomes;
}

/** `perSecond` sign-ins a second on a fixed schedule for `seconds`, whatever is still unanswered; waits for every answer. */
async function openLoop(client: Client, perSecond: number, seconds: number): Promise<Outcome[]> {
  const pending: Promise<Outcome>[] = [];
  const total = Math.round(perSecond * seconds);
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      // Catch up on every arrival due by now: a late timer must not lower the rate.
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * perSecond) + 1);
      while (pending.length < due) pending.push(client.send());
      if (pending.length >= total) resolve();
      else setTimeout(tick, Math.max(1, Math.min(10, 1000 / perSecond)));
    };
    tick();
  });
  return Promise.all(pending);
}

function summarise(
  outcomes: Outcome[],
  { label, mode, load, seconds }: Pick<OverloadRun, 'label' | 'mode' | 'load' | 'seconds'>,
  cpu: { serverCores: number | null; benchCores: number; otherCores: number | null },
): OverloadRun {
  const byStatus: Record<string, number> = {};
  for (const { status } of outcomes) byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
  const accepted = outcomes.filter((o) => typeof o.status === 'number' && o.status >= 200 && o.status < 300).map((o) => o.ms);
  const shed = outcomes.filter((o) => o.isShed);
  const failures = outcomes.filter((o) => typeof o.status !== 'number' || (o.status >= 500 && !o.isShed)).length;
  return {
    label,
    mode,
    load,
    seconds,
    sent: outcomes.length,
    byStatus,
    acceptedPerSecond: accepted.length / seconds,
    accepted:
      accepted.length > 0 ? { p50: percentile(accepted, 50), p99: percentile(accepted, 99), max: Math.max(...accepted) } : null,
    shed: {
      count: shed.length,
      p99:
        shed.length > 0
          ? percentile(
              shed.map((o) => o.ms),
              99,
            )
          : 0,
      max: shed.reduce((max, o) => Math.max(max, o.ms), 0),
      withoutRetryAfter: shed.filter((o) => !o.hasRetryAfter).length,
    },
    failures,
    maxMs: outcomes.reduce((max, o) => Math.max(max, o.ms), 0),
    serverCores: cpu.serverCores,
    loaderCores: cpu.benchCores,
    otherCores: cpu.otherCores,
  };
}

async function measure(
  server: RunningServer,
  run: () => Promise<Outcome[]>,
  meta: Pick<OverloadRun, 'label' | 'mode' | 'load' | 'seconds'>,
): Promise<OverloadRun> {
  const stopWatch = watchCpu(server.pid);
  const outcomes = await run();
  return summarise(outcomes, meta, stopWatch());
}

function judge(run: OverloadRun): OverloadResult['verdicts'][number] {
  const problems = [
    run.failures > 0 ? `${run.failures} failures (5xx other than a shed, timeouts, broken connections)` : null,
    run.maxMs > OVERLOAD_TARGETS.maxLatencyMs ? `longest answer ${Math.round(run.maxMs)} ms` : null,
    run.shed.withoutRetryAfter > 0 ? `${run.shed.withoutRetryAfter} sheds without Retry-After` : null,
    run.accepted === null ? 'no sign-in accepted' : null,
  ].filter((problem): problem is string => problem !== null);
  return {
    run: run.label,
    verdict: problems.length === 0 ? 'MEET' : 'MISS',
    why: problems.length === 0 ? 'no failures, every answer within 10 s' : problems.join('; '),
  };
}

export async function overloadSuite({ ctx, tmpRoot }: { ctx: SuiteContext; tmpRoot: string }): Promise<OverloadResult> {
  const bodies = signInBodies();
  const result: OverloadResult = { accounts: bodies.length, steps: [], saturation: null, overload: [], verdicts: [] };
  ctx.progress('overload: first start of an embedded server (migrations + demo seed)');
  const { server } = await ctx.timedStart({
    label: 'overload server',
    dataDir: path.join(tmpRoot, 'overload'),
    timeoutMs: OVERLOAD_PLAN.startTimeoutMs,
  });
  const client = createSignInClient(server, bodies);
  try {
    await signIn(server.baseUrl);
    await ctx.quiet('overload', server.pid);
    await closedLoop(client, 4, OVERLOAD_PLAN.warmupSeconds);

    // Doublings go on until two in a row add less than `saturationGain` each (one can be noise).
    let best: OverloadRun | null = null;
    let flatSteps = 0;
    for (const connections of OVERLOAD_PLAN.steps) {
      ctx.progress(`overload: sign-in with ${connections} connections for ${OVERLOAD_PLAN.stepSeconds} s`);
      const step = await measure(server, () => closedLoop(client, connections, OVERLOAD_PLAN.stepSeconds), {
        label: `step c=${connections}`,
        mode: 'closed',
        load: connections,
        seconds: OVERLOAD_PLAN.stepSeconds,
      });
      result.steps.push(step);
      const isFlat = best !== null && step.acceptedPerSecond < best.acceptedPerSecond * (1 + OVERLOAD_PLAN.saturationGain);
      flatSteps = isFlat ? flatSteps + 1 : 0;
      if (!best || step.acceptedPerSecond > best.acceptedPerSecond) best = step;
      if (flatSteps >= 2) break;
    }
    if (!best || best.acceptedPerSecond === 0) throw new Error('no sign-in succeeded while stepping the load up');
    // The smallest concurrency that reached the plateau: within `saturationGain` of the best.
    const peak = best.acceptedPerSecond;
    const plateau = result.steps.find((step) => step.acceptedPerSecond * (1 + OVERLOAD_PLAN.saturationGain) >= peak)!;
    result.saturation = { connections: plateau.load, acceptedPerSecond: peak };

    const connections = 2 * plateau.load;
    ctx.progress(`overload: twice the saturating concurrency, ${connections} connections for ${OVERLOAD_PLAN.overloadSeconds} s`);
    result.overload.push(
      await measure(server, () => closedLoop(client, connections, OVERLOAD_PLAN.overloadSeconds), {
        label: `2× concurrency, c=${connections}`,
        mode: 'closed',
        load: connections,
        seconds: OVERLOAD_PLAN.overloadSeconds,
      }),
    );
    const rate = Math.round(2 * peak);
    ctx.progress(`overload: twice the saturated rate, ${rate} sign-ins a second for ${OVERLOAD_PLAN.overloadSeconds} s`);
    result.overload.push(
      await measure(server, () => openLoop(client, rate, OVERLOAD_PLAN.overloadSeconds), {
        label: `2× rate, ${rate}/s`,
        mode: 'open',
        load: rate,
        seconds: OVERLOAD_PLAN.overloadSeconds,
      }),
    );
    result.verdicts = result.overload.map(judge);
  } finally {
    client.close();
    await server.stop();
  }
  return result;
}

export function renderOverload(result: OverloadResult): string {
  const ms = (value: number | undefined) => (value === undefined ? '—' : formatNumber(value, 0));
  const statuses = (run: OverloadRun) =>
    Object.entries(run.byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
  const header = [
    'run',
    'sent',
    'answers by status',
    'accepted/s',
    'accepted p50',
    'accepted p99',
    'shed p99',
    'max ms',
    'server cores',
    'other cores',
  ];
  const rows = [...result.steps, ...result.overload].map((run) => [
    run.label,
    String(run.sent),
    statuses(run),
    formatNumber(run.acceptedPerSecond, 1),
    ms(run.accepted?.p50),
    ms(run.accepted?.p99),
    run.shed.count > 0 ? ms(run.shed.p99) : '—',
    ms(run.maxMs),
    run.serverCores === null ? '?' : formatNumber(run.serverCores, 2),
    run.otherCores === null ? '?' : `${formatNumber(run.otherCores, 2)}${run.otherCores >= NOISY_CORES ? ' ⚠' : ''}`,
  ]);
  const widths = header.map((title, column) => Math.max([...title].length, ...rows.map((row) => [...row[column]!].length)));
  const render = (cells: string[]) =>
    `  ${cells.map((text, column) => pad(text, widths[column]!, column === 1 || column > 2)).join('  ')}`.trimEnd();
  const out = [
    `8. overload — POST /api/users/auth/sign-in, embedded, ${result.accounts} demo accounts in turn; ` +
      `latencies in ms of every answer; an answer after ${OVERLOAD_PLAN.timeoutMs / 1000} s is a timeout; ` +
      '⚠: other processes kept the machine busy (figures unreliable)',
    render(header),
    ...rows.slice(0, result.steps.length).map(render),
  ];
  if (result.saturation) {
    out.push(
      `  saturated at c=${result.saturation.connections} (${formatNumber(result.saturation.acceptedPerSecond, 1)} sign-ins/s at best); then twice that:`,
    );
  }
  out.push(...rows.slice(result.steps.length).map(render));
  for (const verdict of result.verdicts) out.push(`  ${verdict.run}: ${verdict.verdict} (${verdict.why})`);
  return out.join('\n');
}
