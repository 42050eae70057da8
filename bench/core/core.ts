/**
 * Sections 1–5 of the benchmarks (`core`). On this machine it measures
 *   1. sign-in throughput against raw argon2id verify throughput (same hashing functions), and
 *      sign-ins with an authenticator app's code beside password-only ones
 *   2. ID token renewal through the session cookie
 *   3. a bearer-verified API read (a user's groups) on the embedded database
 *   4. cold start to the first 200 from /readyz
 *   5. server memory (RSS) after the first start (migrations + demo seed), after cold starts and
 *      after the loads, embedded and on PostgreSQL
 */
import path from 'node:path';
import { DEMO_ACCOUNT, DEMO_ADMIN, getOk, issueToken, signIn } from '../lib/http.js';
import type { LoadFigures, LoadOptions } from '../lib/load.js';
import { backendPids, createScratchDatabase, dropScratchDatabase } from '../lib/postgres.js';
import { Scoreboard } from '../lib/report.js';
import type { MemoryFigures, RunningServer } from '../lib/server.js';
import { median, sleep } from '../lib/stats.js';
import type { SuiteContext } from '../lib/suite.js';
import { measureArgon2, measureVerify, type ThroughputFigures } from './argon2.js';
import { enrolTotp, measureSignInLoop, type SignInLoopFigures } from './two-factor.js';

/** How each measurement is bounded; the section stays within a few minutes on 2 cores. */
export const CORE_PLAN = {
  /**
   * Raw hashing; verify is sampled again for `verifyAfterSeconds` right after the sign-in load. As
   * many calls at a time as the sign-in load has connections: both sides then keep as much work in
   * flight (with 2 on 2 cores the raw side left a tenth of the machine idle between calls, which
   * flattered the ratio).
   */
  argon2: { concurrency: 4, seconds: 5, verifyAfterSeconds: 3 },
  /** A fresh process compiles its hot paths (PGlite's WebAssembly among them) in its first seconds of load (decision 0030). */
  signIn: { connections: 4, seconds: 8, warmup: 5 },
  /** Password-only and app-code sign-ins through one client loop, one after the other (decision 0066). */
  twoFactor: { connections: 4, seconds: 6, warmup: 2 },
  token: { connections: 10, seconds: 8, warmup: 1 },
  groups: { connections: 10, seconds: 10, warmup: 2 },
  coldStarts: 3,
  /** Pause after /readyz before reading RSS, so the figure is of a settled process. */
  settleMs: 1_000,
  firstStartTimeoutMs: 120_000,
  coldStartTimeoutMs: 60_000,
} as const;

export const CORE_TARGETS = {
  signInRatio: 0.6,
  tokenPerSecond: 1_000,
  groupsPerSecond: 3_000,
  groupsP99Ms: 30,
  coldStartSeconds: 5,
  rssEmbeddedMb: 450,
  rssPostgresMb: 200,
} as const;

const coreLines: ConstructorParameters<typeof Scoreboard>[0] = [
  {
    id: 'signin.hash',
    section: 1,
    label: `argon2id hash, raw (${CORE_PLAN.argon2.concurrency} at a time)`,
    unit: '/s',
    digits: 1,
  },
  {
    id: 'signin.verify',
    section: 1,
    label: `argon2id verify, raw (${CORE_PLAN.argon2.concurrency} at a time)`,
    unit: '/s',
    digits: 1,
  },
  {
    id: 'signin.rate',
    section: 1,
    label: `sign-in, POST /api/users/auth/sign-in (c=${CORE_PLAN.signIn.connections})`,
    unit: '/s',
    digits: 1,
  },
  {
    id: 'signin.ratio',
    section: 1,
    label: 'sign-in ÷ raw verify',
    unit: '',
    digits: 2,
    target: { op: '>=', value: CORE_TARGETS.signInRatio },
  },
  { id: 'signin.cpuRatio', section: 1, label: 'sign-in ÷ raw verify, per CPU-second used', unit: '', digits: 2 },
  {
    id: 'signin.twoFactor.password',
    section: 1,
    label: `sign-in, password only, client loop (c=${CORE_PLAN.twoFactor.connections})`,
    unit: '/s',
    digits: 1,
  },
  {
    id: 'signin.twoFactor.totp',
    section: 1,
    label: `sign-in with an app's code, password + code step (c=${CORE_PLAN.twoFactor.connections})`,
    unit: '/s',
    digits: 1,
  },
  { id: 'signin.twoFactor.ratio', section: 1, label: "sign-in with an app's code ÷ password only", unit: '', digits: 2 },
  {
    id: 'token.rate',
    section: 2,
    label: `token renewal, POST /api/users/auth/token (c=${CORE_PLAN.token.connections})`,
    unit: '/s',
    digits: 0,
    target: { op: '>=', value: CORE_TARGETS.tokenPerSecond },
  },
  {
    id: 'groups.rate',
    section: 3,
    label: `GET …/users/{id}/groups, bearer, embedded (c=${CORE_PLAN.groups.connections})`,
    unit: 'req/s',
    digits: 0,
    target: { op: '>=', value: CORE_TARGETS.groupsPerSecond },
  },
  {
    id: 'groups.p99',
    section: 3,
    label: 'GET …/groups p99 latency, embedded',
    unit: 'ms',
    digits: 1,
    target: { op: '<=', value: CORE_TARGETS.groupsP99Ms },
  },
  { id: 'start.first', section: 4, label: 'first start (migrations + demo seed), embedded', unit: 's', digits: 2 },
  {
    id: 'start.cold',
    section: 4,
    label: `cold start to /readyz 200, embedded (median of ${CORE_PLAN.coldStarts})`,
    unit: 's',
    digits: 2,
    target: { op: '<=', value: CORE_TARGETS.coldStartSeconds },
  },
  {
    id: 'memory.first.start',
    section: 5,
    label: 'RSS after the first start (migrations + demo seed), embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.first.load',
    section: 5,
    label: 'RSS of that first-start process after the loads of 1–3, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.first.prepare',
    section: 5,
    label: 'peak RSS of the process that prepares a new embedded database (first start)',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.first.peak',
    section: 5,
    label: 'peak RSS of the first-start server process, spawn to 1 s after ready',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.start',
    section: 5,
    label: 'RSS after a cold start, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.peak',
    section: 5,
    label: `peak RSS of a cold-started server process, spawn to 1 s after ready (median of ${CORE_PLAN.coldStarts})`,
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.load',
    section: 5,
    label: 'RSS of a cold-started process after the loads of 1–3, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssEmbeddedMb },
  },
  { id: 'pg.start.first', section: 5, label: 'first start (migrations + demo seed), PostgreSQL', unit: 's', digits: 2 },
  {
    id: 'pg.memory.first',
    section: 5,
    label: 'RSS after the first start (migrations + demo seed), PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssPostgresMb },
  },
  { id: 'pg.start.cold', section: 5, label: 'cold start to /readyz 200, PostgreSQL', unit: 's', digits: 2 },
  {
    id: 'pg.memory.start',
    section: 5,
    label: 'RSS after a cold start, PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssPostgresMb },
  },
  {
    id: 'pg.groups.rate',
    section: 5,
    label: `GET …/groups, bearer, PostgreSQL (c=${CORE_PLAN.groups.connections})`,
    unit: 'req/s',
    digits: 0,
  },
  { id: 'pg.groups.p99', section: 5, label: 'GET …/groups p99 latency, PostgreSQL', unit: 'ms', digits: 1 },
  {
    id: 'pg.memory.load',
    section: 5,
    label: 'RSS after the loads of 1–3, PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: CORE_TARGETS.rssPostgresMb },
  },
];

export type CoreDetails = {
  argon2?: { hash: ThroughputFigures; verify: ThroughputFigures; verifyAfterSignIn?: ThroughputFigures };
  /** Password-only and app-code sign-ins through one client loop (decision 0066). */
  twoFactor?: { password: SignInLoopFigures; totp: SignInLoopFigures };
  startsMs: Record<string, number[]>;
  memory: Record<string, MemoryFigures | null>;
  postgres?: { serverVersion: string };
};

type CoreRun = { ctx: SuiteContext; board: Scoreboard; details: CoreDetails };

/** Sections 1–5: starts and memory on both engines, and the loads of 1–3 on the embedded one. */
export async function coreSuite({ ctx, tmpRoot }: { ctx: SuiteContext; tmpRoot: string }) {
  const run: CoreRun = { ctx, board: new Scoreboard(coreLines), details: { startsMs: {}, memory: {} } };
  const server = await startEmbedded(run, path.join(tmpRoot, 'embedded'));
  try {
    // Raw hashing right before the sign-in load, so both see the same machine.
    await rawArgon2(run);
    if (server) await embeddedLoads(run, server);
  } finally {
    await server?.stop();
  }
  await onPostgres(run, path.join(tmpRoot, 'postgres'));
  return { board: run.board, details: run.details };
}

const joinNotes = (...notes: (string | undefined)[]) => notes.filter(Boolean).join('; ') || undefined;

/** Runs one step; a crash is recorded, its lines marked ERROR, and the run goes on. */
async function step<T>(run: CoreRun, name: string, linePrefixes: string[], work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    run.ctx.recordError(name, message);
    console.error(`✗ ${name} failed: ${message}`);
    for (const prefix of linePrefixes) run.board.fail(prefix, 'ERROR', `${name} failed: ${message.split('\n', 1)[0]}`);
    return undefined;
  }
}

const groupsUrl = (server: RunningServer, userId: string) =>
  `${server.baseUrl}/api/users/extension/users/${encodeURIComponent(userId)}/groups`;

async function settledMemory(server: RunningServer): Promise<MemoryFigures> {
  await sleep(CORE_PLAN.settleMs);
  const memory = server.memory();
  if (!memory) throw new Error(`could not read /proc/${server.pid}/status`);
  return memory;
}

/** Signs in once, takes an ID token, checks the groups read answers 200 and loads it. */
async function loadGroups(run: CoreRun, server: RunningServer, key: string, databasePids?: () => Promise<number[]>) {
  const session = await signIn(server.baseUrl);
  const token = await issueToken(server.baseUrl, session.cookie);
  const url = groupsUrl(server, session.userId);
  const headers = { authorization: `Bearer ${token.idToken}` };
  await getOk(url, headers);
  run.ctx.progress(`${key}: GET …/groups with ${CORE_PLAN.groups.connections} connections for ${CORE_PLAN.groups.seconds} s`);
  return run.ctx.measureLoad(key, server, {
    url,
    headers,
    connections: CORE_PLAN.groups.connections,
    durationSeconds: CORE_PLAN.groups.seconds,
    warmupSeconds: CORE_PLAN.groups.warmup,
    ...(databasePids ? { databasePids } : {}),
  });
}

/** 4 and 5 (start): the first start migrates and seeds; then cold starts of new processes on that directory. */
async function startEmbedded(run: CoreRun, dataDir: string): Promise<RunningServer | undefined> {
  return step(
    run,
    'embedded starts',
    ['start.', 'memory.embedded', 'memory.first', 'signin.rate', 'signin.ratio', 'signin.cpuRatio', 'token.', 'groups.'],
    async () => {
      run.ctx.progress('embedded: first start (migrations + demo seed)');
      const first = await run.ctx.timedStart({
        label: 'embedded first start',
        dataDir,
        timeoutMs: CORE_PLAN.firstStartTimeoutMs,
      });
      run.details.startsMs.embeddedFirst = [first.server.readyMs];
      run.board.set('start.first', first.server.readyMs / 1000, { note: run.ctx.noise('startEmbeddedFirst', first.otherCores) });
      try {
        await firstStartMemory(run, first.server);
      } finally {
        await first.server.stop();
      }

      const coldMs: number[] = [];
      const rss: number[] = [];
      const peaks: number[] = [];
      const others: number[] = [];
      let kept: RunningServer | undefined;
      for (let attempt = 1; attempt <= CORE_PLAN.coldStarts; attempt += 1) {
        run.ctx.progress(`embedded: cold start ${attempt}/${CORE_PLAN.coldStarts}`);
        const cold = await run.ctx.timedStart({
          label: `embedded cold start ${attempt}`,
          dataDir,
          timeoutMs: CORE_PLAN.coldStartTimeoutMs,
        });
        others.push(cold.otherCores ?? 0);
        coldMs.push(cold.server.readyMs);
        const settled = await settledMemory(cold.server);
        rss.push(settled.rssMb);
        peaks.push(settled.peakRssMb);
        if (attempt < CORE_PLAN.coldStarts) await cold.server.stop();
        else kept = cold.server;
      }
      run.details.startsMs.embeddedCold = coldMs;
      run.board.set('start.cold', median(coldMs) / 1000, {
        note: joinNotes(
          `each: ${coldMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
          run.ctx.noise('startEmbeddedCold', Math.max(...others)),
        ),
      });
      run.details.memory.embeddedStart = kept?.memory() ?? null;
      run.board.set('memory.embedded.start', median(rss), {
        note: `median of ${rss.length} starts (${rss.map((mb) => mb.toFixed(0)).join(', ')}), ${CORE_PLAN.settleMs / 1000} s after ready`,
      });
      run.board.set('memory.embedded.peak', median(peaks), {
        note: `VmHWM; each: ${peaks.map((mb) => mb.toFixed(0)).join(', ')}`,
      });
      return kept;
    },
  );
}

/**
 * 5 (first start): the memory of the process a newcomer's first start leaves serving, 1 s after
 * ready and after the same loads as 1–3; and the peak of the process it prepared the database in.
 */
async function firstStartMemory(run: CoreRun, server: RunningServer) {
  await step(run, 'memory of the first start (embedded)', ['memory.first'], async () => {
    const preparers = server.startChildren;
    if (preparers.length > 0) {
      run.board.set('memory.first.prepare', Math.max(...preparers.map((child) => child.peakRssMb)), {
        note: `VmHWM sampled every ~20 ms while it ran; ${preparers.length} process(es)`,
      });
    } else {
      run.board.fail('memory.first.prepare', 'SKIP', 'the server started no other process: it prepared the database itself');
    }
    const atStart = await settledMemory(server);
    run.details.memory.firstStart = atStart;
    run.board.set('memory.first.peak', atStart.peakRssMb, { note: 'VmHWM' });
    run.board.set('memory.first.start', atStart.rssMb, {
      note: `${CORE_PLAN.settleMs / 1000} s after ready; ${memoryNote(atStart)}`,
    });
    const problems = await replayLoads(run, server, 'firstStart', ['signIn', 'token', 'groups']);
    const afterLoad = await settledMemory(server);
    run.details.memory.firstStartAfterLoad = afterLoad;
    run.board.set('memory.first.load', afterLoad.rssMb, {
      problem: problems.length > 0 ? problems.join('; ') : null,
      note: memoryNote(afterLoad),
    });
  });
}

type CoreLoad = 'signIn' | 'token' | 'groups';

/**
 * The loads of 1–3 again (same connections and durations), for what they leave in the server's
 * memory; their figures go to the load runs block only. Returns the problems of runs that were
 * not all 2xx.
 */
async function replayLoads(
  run: CoreRun,
  server: RunningServer,
  key: string,
  loads: readonly CoreLoad[],
  databasePids?: () => Promise<number[]>,
) {
  const session = await signIn(server.baseUrl);
  const token = await issueToken(server.baseUrl, session.cookie);
  const runs: Record<CoreLoad, Omit<LoadOptions, 'title' | 'server'>> = {
    signIn: {
      url: `${server.baseUrl}/api/users/auth/sign-in`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_ACCOUNT),
      connections: CORE_PLAN.signIn.connections,
      durationSeconds: CORE_PLAN.signIn.seconds,
      warmupSeconds: CORE_PLAN.signIn.warmup,
    },
    token: {
      url: `${server.baseUrl}/api/users/auth/token`,
      method: 'POST',
      headers: { cookie: session.cookie },
      connections: CORE_PLAN.token.connections,
      durationSeconds: CORE_PLAN.token.seconds,
      warmupSeconds: CORE_PLAN.token.warmup,
    },
    groups: {
      url: groupsUrl(server, session.userId),
      headers: { authorization: `Bearer ${token.idToken}` },
      connections: CORE_PLAN.groups.connections,
      durationSeconds: CORE_PLAN.groups.seconds,
      warmupSeconds: CORE_PLAN.groups.warmup,
    },
  };
  const problems: string[] = [];
  for (const load of loads) {
    const options = runs[load];
    run.ctx.progress(`${key}: ${load} with ${options.connections} connections for ${options.durationSeconds} s`);
    const { problem } = await run.ctx.measureLoad(`${key}.${load}`, server, {
      ...options,
      ...(databasePids ? { databasePids } : {}),
    });
    if (problem) problems.push(`${load}: ${problem}`);
  }
  return problems;
}

/** 1 (raw half): argon2id in this process, measured while the server idles. */
async function rawArgon2(run: CoreRun) {
  await step(run, 'raw argon2id throughput', ['signin.'], async () => {
    run.ctx.progress(
      `argon2id: hash, then verify, ${CORE_PLAN.argon2.concurrency} at a time for ${CORE_PLAN.argon2.seconds} s each`,
    );
    await run.ctx.quiet('argon2id');
    const figures = await measureArgon2({ password: DEMO_ACCOUNT.password, ...CORE_PLAN.argon2 });
    run.details.argon2 = figures;
    const cores = (f: ThroughputFigures) => `${f.meanMs.toFixed(1)} ms each, ${f.cores.toFixed(2)} cores busy`;
    run.board.set('signin.hash', figures.hash.perSecond, {
      note: joinNotes(cores(figures.hash), run.ctx.noise('argon2Hash', figures.hash.otherCores)),
    });
    run.board.set('signin.verify', figures.verify.perSecond, {
      note: joinNotes(cores(figures.verify), run.ctx.noise('argon2Verify', figures.verify.otherCores)),
    });
  });
}

async function embeddedLoads(run: CoreRun, server: RunningServer) {
  // 1. Sign-in under load, with the correct password (failed sign-ins are rate limited).
  await step(run, 'sign-in load', ['signin.rate', 'signin.ratio', 'signin.cpuRatio'], async () => {
    await signIn(server.baseUrl);
    run.ctx.progress(`embedded: sign-in with ${CORE_PLAN.signIn.connections} connections for ${CORE_PLAN.signIn.seconds} s`);
    const {
      figures,
      problem,
      noise: noisy,
    } = await run.ctx.measureLoad('signIn', server, {
      url: `${server.baseUrl}/api/users/auth/sign-in`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_ACCOUNT),
      connections: CORE_PLAN.signIn.connections,
      durationSeconds: CORE_PLAN.signIn.seconds,
      warmupSeconds: CORE_PLAN.signIn.warmup,
    });
    run.board.set('signin.rate', figures.okPerSecond, { problem, note: joinNotes(latencyNote(figures), noisy) });

    // Raw verify again right after, so a change in background load hits both sides of the ratio.
    const before = run.details.argon2?.verify;
    if (!before) {
      run.board.fail('signin.', 'ERROR', 'no raw verify figure to compare with');
      return;
    }
    const after = await measureVerify({
      password: DEMO_ACCOUNT.password,
      concurrency: CORE_PLAN.argon2.concurrency,
      seconds: CORE_PLAN.argon2.verifyAfterSeconds,
    });
    run.details.argon2 = { ...run.details.argon2!, verifyAfterSignIn: after };
    const operations = before.operations + after.operations;
    const seconds = before.seconds + after.seconds;
    const raw = operations / seconds;
    run.board.set('signin.verify', raw, {
      note: joinNotes(
        `${before.perSecond.toFixed(1)} /s before and ${after.perSecond.toFixed(1)} /s after the sign-in load; ${before.meanMs.toFixed(1)} ms each`,
        run.ctx.noise('argon2Verify', Math.max(before.otherCores ?? 0, after.otherCores ?? 0)),
      ),
    });
    run.board.set('signin.ratio', figures.okPerSecond / raw, { problem });
    const rawPerCpuSecond = operations / (before.cores * before.seconds + after.cores * after.seconds);
    if (figures.serverCores) {
      run.board.set('signin.cpuRatio', figures.okPerSecond / figures.serverCores / rawPerCpuSecond, {
        note: `${(1000 / rawPerCpuSecond).toFixed(1)} ms CPU a raw verify, ${((1000 * figures.serverCores) / figures.okPerSecond).toFixed(1)} ms server CPU a sign-in`,
      });
    }
  });

  // 1b. Sign-ins with an authenticator app's code (the demo admin's, set up here) beside password-only
  // ones (the demo account's), through the same client loop.
  await step(run, 'sign-in with a second factor', ['signin.twoFactor.'], async () => {
    const totpUri = await enrolTotp(server.baseUrl, DEMO_ADMIN);
    const plan = CORE_PLAN.twoFactor;
    const loop = (account: typeof DEMO_ACCOUNT | typeof DEMO_ADMIN, uri: string | null) =>
      measureSignInLoop({
        baseUrl: server.baseUrl,
        account,
        totpUri: uri,
        connections: plan.connections,
        seconds: plan.seconds,
        warmupSeconds: plan.warmup,
      });
    run.ctx.progress(`embedded: password-only and app-code sign-ins, ${plan.connections} at a time for ${plan.seconds} s each`);
    await run.ctx.quiet('signInPasswordLoop', server.pid);
    const password = await loop(DEMO_ACCOUNT, null);
    await run.ctx.quiet('signInTotpLoop', server.pid);
    const totp = await loop(DEMO_ADMIN, totpUri);
    run.details.twoFactor = { password, totp };
    const note = (figures: SignInLoopFigures) =>
      `${figures.requestsPerSignIn} request(s) a sign-in, p50 ${figures.p50Ms.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms${figures.failures ? `, ${figures.failures} failed` : ''}`;
    run.board.set('signin.twoFactor.password', password.perSecond, { note: note(password) });
    run.board.set('signin.twoFactor.totp', totp.perSecond, { note: note(totp) });
    run.board.set('signin.twoFactor.ratio', totp.perSecond / password.perSecond);
  });

  // 2. Token renewal through the session cookie.
  await step(run, 'token renewal load', ['token.'], async () => {
    const session = await signIn(server.baseUrl);
    await issueToken(server.baseUrl, session.cookie);
    run.ctx.progress(`embedded: token renewal with ${CORE_PLAN.token.connections} connections for ${CORE_PLAN.token.seconds} s`);
    const {
      figures,
      problem,
      noise: noisy,
    } = await run.ctx.measureLoad('token', server, {
      url: `${server.baseUrl}/api/users/auth/token`,
      method: 'POST',
      headers: { cookie: session.cookie },
      connections: CORE_PLAN.token.connections,
      durationSeconds: CORE_PLAN.token.seconds,
      warmupSeconds: CORE_PLAN.token.warmup,
    });
    run.board.set('token.rate', figures.okPerSecond, { problem, note: joinNotes(latencyNote(figures), noisy) });
  });

  // 3. A bearer-verified read.
  await step(run, 'groups load (embedded)', ['groups.'], async () => {
    const { figures, problem, noise: noisy } = await loadGroups(run, server, 'groupsEmbedded');
    run.board.set('groups.rate', figures.okPerSecond, {
      problem,
      note: joinNotes(
        `autocannon per-second samples: mean ${figures.reqPerSecondAverage.toFixed(0)}, median ${figures.reqPerSecondMedian.toFixed(0)}`,
        noisy,
      ),
    });
    run.board.set('groups.p99', figures.latencyMs.p99, { problem, note: latencyNote(figures) });
  });

  // 5. Memory after the load above.
  await step(run, 'memory after load (embedded)', ['memory.embedded.load'], async () => {
    const memory = await settledMemory(server);
    run.details.memory.embeddedAfterLoad = memory;
    run.board.set('memory.embedded.load', memory.rssMb, { note: memoryNote(memory) });
  });
}

async function onPostgres(run: CoreRun, dataDir: string) {
  const prefixes = ['pg.'];
  const database = await step(run, 'PostgreSQL scratch database', prefixes, createScratchDatabase);
  if (!database) return;
  run.ctx.trackDatabase(database.name, true);
  run.details.postgres = { serverVersion: database.serverVersion };
  try {
    await step(run, 'PostgreSQL server', prefixes, async () => {
      run.ctx.progress(`PostgreSQL ${database.serverVersion}: first start (migrations + demo seed)`);
      const first = await run.ctx.timedStart({
        label: 'PostgreSQL first start',
        dataDir,
        databaseUrl: database.url,
        timeoutMs: CORE_PLAN.firstStartTimeoutMs,
      });
      run.details.startsMs.postgresFirst = [first.server.readyMs];
      run.board.set('pg.start.first', first.server.readyMs / 1000, {
        note: run.ctx.noise('startPostgresFirst', first.otherCores),
      });
      try {
        const atFirst = await settledMemory(first.server);
        run.details.memory.postgresFirstStart = atFirst;
        run.board.set('pg.memory.first', atFirst.rssMb, {
          note: `${CORE_PLAN.settleMs / 1000} s after ready; ${memoryNote(atFirst)}`,
        });
      } finally {
        await first.server.stop();
      }

      run.ctx.progress('PostgreSQL: cold start');
      const cold = await run.ctx.timedStart({
        label: 'PostgreSQL cold start',
        dataDir,
        databaseUrl: database.url,
        timeoutMs: CORE_PLAN.coldStartTimeoutMs,
      });
      const server = cold.server;
      try {
        run.details.startsMs.postgresCold = [server.readyMs];
        run.board.set('pg.start.cold', server.readyMs / 1000, { note: run.ctx.noise('startPostgresCold', cold.otherCores) });
        const atStart = await settledMemory(server);
        run.details.memory.postgresStart = atStart;
        run.board.set('pg.memory.start', atStart.rssMb, {
          note: `${CORE_PLAN.settleMs / 1000} s after ready; ${memoryNote(atStart)}`,
        });

        const databasePids = () => backendPids(database.name);
        // Sign-ins and renewals first, for memory only; the groups read is measured.
        const problems = await replayLoads(run, server, 'postgres', ['signIn', 'token'], databasePids);
        const { figures, problem, noise: noisy } = await loadGroups(run, server, 'groupsPostgres', databasePids);
        // The CPU a read costs tells a slower build from a busier machine: the rate alone moves several
        // times over with whatever else runs on the machine, the same build's too.
        run.board.set('pg.groups.rate', figures.okPerSecond, { problem, note: joinNotes(cpuNote(figures), noisy) });
        run.board.set('pg.groups.p99', figures.latencyMs.p99, { problem, note: latencyNote(figures) });

        const afterLoad = await settledMemory(server);
        run.details.memory.postgresAfterLoad = afterLoad;
        if (problem) problems.push(`groups: ${problem}`);
        run.board.set('pg.memory.load', afterLoad.rssMb, {
          problem: problems.length > 0 ? problems.join('; ') : null,
          note: memoryNote(afterLoad),
        });
      } finally {
        await server.stop();
      }
    });
  } finally {
    await step(run, 'drop the PostgreSQL scratch database', [], () => dropScratchDatabase(database.name));
    run.ctx.trackDatabase(database.name, false);
  }
}

function memoryNote(memory: MemoryFigures): string {
  return `anonymous ${memory.anonMb.toFixed(0)} MB + file-backed ${memory.fileMb.toFixed(0)} MB; peak ${memory.peakRssMb.toFixed(0)} MB`;
}

/** CPU a request of the server and of its PostgreSQL backends, in ms, and of the load generator, in cores. */
function cpuNote(figures: LoadFigures): string | undefined {
  if (figures.serverCores === null || figures.okPerSecond === 0) return undefined;
  const perRequest = (cores: number) => ((1000 * cores) / figures.okPerSecond).toFixed(2);
  const database = figures.databaseCores === null ? '' : `, PostgreSQL ${perRequest(figures.databaseCores)} ms`;
  return `CPU a request: server ${perRequest(figures.serverCores)} ms${database}; load generator ${figures.loaderCores.toFixed(2)} cores`;
}

function latencyNote(figures: LoadFigures): string {
  const { average, p50, p99, max } = figures.latencyMs;
  const cpu =
    figures.serverCores === null
      ? ''
      : `; server CPU ${figures.serverCores.toFixed(2)} cores (${((1000 * figures.serverCores) / figures.okPerSecond).toFixed(2)} ms a request), ` +
        `load generator ${figures.loaderCores.toFixed(2)}`;
  return `latency mean ${average.toFixed(1)} / p50 ${p50} / p99 ${p99} / max ${max} ms${cpu}`;
}
