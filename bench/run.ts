/**
 * PatientSim benchmark suite: `npm run bench` (builds first). One run measures, on this machine:
 *   1. sign-in throughput against raw argon2id verify throughput (same hashing functions)
 *   2. ID token renewal through the session cookie
 *   3. a bearer-verified API read (a user's groups) on the embedded database
 *   4. cold start to the first 200 from /readyz
 *   5. server memory (RSS) after start and after load, embedded and on PostgreSQL
 * It prints a table of figures, targets and PASS/MISS and writes bench/results/latest.json.
 * A missed target never fails the run; only a crash does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureArgon2, type ThroughputFigures } from './lib/argon2.js';
import { DEMO_ACCOUNT, getOk, issueToken, signIn } from './lib/http.js';
import { type LoadFigures, loadProblem, runLoad } from './lib/load.js';
import { machineFacts } from './lib/machine.js';
import { createScratchDatabase, dropScratchDatabase } from './lib/postgres.js';
import { renderMachine, renderTable, Scoreboard } from './lib/report.js';
import { killAllServers, type MemoryFigures, REPO_ROOT, type RunningServer, startServer } from './lib/server.js';
import { median, sleep } from './lib/stats.js';

/** How each measurement is bounded; the whole run stays within a few minutes on 2 cores. */
const PLAN = {
  argon2: { concurrency: 2, seconds: 5 },
  signIn: { connections: 4, seconds: 8, warmup: 1 },
  token: { connections: 10, seconds: 8, warmup: 1 },
  groups: { connections: 10, seconds: 10, warmup: 2 },
  coldStarts: 3,
  /** Pause after /readyz before reading RSS, so the figure is of a settled process. */
  settleMs: 1_000,
  firstStartTimeoutMs: 120_000,
  coldStartTimeoutMs: 60_000,
  /** Hard stop for the whole run, servers included. */
  watchdogMs: 8 * 60_000,
} as const;

const TARGETS = {
  signInRatio: 0.8,
  tokenPerSecond: 1_000,
  groupsPerSecond: 3_000,
  groupsP99Ms: 30,
  coldStartSeconds: 5,
  rssEmbeddedMb: 450,
  rssPostgresMb: 200,
} as const;

const board = new Scoreboard([
  { id: 'signin.hash', section: 1, label: 'argon2id hash, raw (2 at a time)', unit: '/s', digits: 1 },
  { id: 'signin.verify', section: 1, label: 'argon2id verify, raw (2 at a time)', unit: '/s', digits: 1 },
  {
    id: 'signin.rate',
    section: 1,
    label: `sign-in, POST /api/users/auth/sign-in (c=${PLAN.signIn.connections})`,
    unit: '/s',
    digits: 1,
  },
  {
    id: 'signin.ratio',
    section: 1,
    label: 'sign-in ÷ raw verify',
    unit: '',
    digits: 2,
    target: { op: '>=', value: TARGETS.signInRatio },
  },
  {
    id: 'token.rate',
    section: 2,
    label: `token renewal, POST /api/users/auth/token (c=${PLAN.token.connections})`,
    unit: '/s',
    digits: 0,
    target: { op: '>=', value: TARGETS.tokenPerSecond },
  },
  {
    id: 'groups.rate',
    section: 3,
    label: `GET …/users/{id}/groups, bearer, embedded (c=${PLAN.groups.connections})`,
    unit: 'req/s',
    digits: 0,
    target: { op: '>=', value: TARGETS.groupsPerSecond },
  },
  {
    id: 'groups.p99',
    section: 3,
    label: 'GET …/groups p99 latency, embedded',
    unit: 'ms',
    digits: 1,
    target: { op: '<=', value: TARGETS.groupsP99Ms },
  },
  { id: 'start.first', section: 4, label: 'first start (migrations + demo seed), embedded', unit: 's', digits: 2 },
  {
    id: 'start.cold',
    section: 4,
    label: `cold start to /readyz 200, embedded (median of ${PLAN.coldStarts})`,
    unit: 's',
    digits: 2,
    target: { op: '<=', value: TARGETS.coldStartSeconds },
  },
  {
    id: 'memory.embedded.start',
    section: 5,
    label: 'RSS after start, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.load',
    section: 5,
    label: 'RSS after load, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  { id: 'pg.start.first', section: 5, label: 'first start (migrations + demo seed), PostgreSQL', unit: 's', digits: 2 },
  { id: 'pg.start.cold', section: 5, label: 'cold start to /readyz 200, PostgreSQL', unit: 's', digits: 2 },
  {
    id: 'pg.memory.start',
    section: 5,
    label: 'RSS after start, PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssPostgresMb },
  },
  {
    id: 'pg.groups.rate',
    section: 5,
    label: `GET …/groups, bearer, PostgreSQL (c=${PLAN.groups.connections})`,
    unit: 'req/s',
    digits: 0,
  },
  { id: 'pg.groups.p99', section: 5, label: 'GET …/groups p99 latency, PostgreSQL', unit: 'ms', digits: 1 },
  {
    id: 'pg.memory.load',
    section: 5,
    label: 'RSS after load, PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssPostgresMb },
  },
]);

type Details = {
  argon2?: { hash: ThroughputFigures; verify: ThroughputFigures };
  loads: Record<string, LoadFigures>;
  startsMs: Record<string, number[]>;
  memory: Record<string, MemoryFigures | null>;
  postgres?: { serverVersion: string };
};

const details: Details = { loads: {}, startsMs: {}, memory: {} };
const errors: { step: string; message: string }[] = [];

const progress = (message: string) => console.info(`· ${message}`);

/** What an interrupted run must still undo: the scratch directory and database. */
const cleanup = { tmpRoot: null as string | null, database: null as string | null };

/** Runs one step; a crash is recorded, its lines marked ERROR, and the run goes on. */
async function step<T>(name: string, linePrefixes: string[], work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push({ step: name, message });
    console.error(`✗ ${name} failed: ${message}`);
    for (const prefix of linePrefixes) board.fail(prefix, 'ERROR', `${name} failed: ${message.split('\n', 1)[0]}`);
    return undefined;
  }
}

const groupsUrl = (server: RunningServer, userId: string) =>
  `${server.baseUrl}/api/users/extension/users/${encodeURIComponent(userId)}/groups`;

async function settledMemory(server: RunningServer): Promise<MemoryFigures> {
  await sleep(PLAN.settleMs);
  const memory = server.memory();
  if (!memory) throw new Error(`could not read /proc/${server.pid}/status`);
  return memory;
}

/** Signs in once, takes an ID token, checks the groups read answers 200 and loads it. */
async function loadGroups(server: RunningServer, key: string): Promise<LoadFigures> {
  const session = await signIn(server.baseUrl);
  const token = await issueToken(server.baseUrl, session.cookie);
  const url = groupsUrl(server, session.userId);
  const headers = { authorization: `Bearer ${token.idToken}` };
  await getOk(url, headers);
  progress(`${key}: GET …/groups with ${PLAN.groups.connections} connections for ${PLAN.groups.seconds} s`);
  const figures = await runLoad({
    title: key,
    url,
    headers,
    connections: PLAN.groups.connections,
    durationSeconds: PLAN.groups.seconds,
    warmupSeconds: PLAN.groups.warmup,
    server,
  });
  details.loads[key] = figures;
  return figures;
}

async function embeddedSuite(dataDir: string) {
  // 4. Starts: the first one migrates and seeds; then cold starts of new processes on that directory.
  const server = await step(
    'embedded starts',
    ['start.', 'memory.embedded', 'signin.rate', 'signin.ratio', 'token.', 'groups.'],
    async () => {
      progress('embedded: first start (migrations + demo seed)');
      const first = await startServer({ label: 'embedded first start', dataDir, timeoutMs: PLAN.firstStartTimeoutMs });
      details.startsMs.embeddedFirst = [first.readyMs];
      board.set('start.first', first.readyMs / 1000);
      await first.stop();

      const coldMs: number[] = [];
      const rss: number[] = [];
      let kept: RunningServer | undefined;
      for (let attempt = 1; attempt <= PLAN.coldStarts; attempt += 1) {
        progress(`embedded: cold start ${attempt}/${PLAN.coldStarts}`);
        const cold = await startServer({ label: `embedded cold start ${attempt}`, dataDir, timeoutMs: PLAN.coldStartTimeoutMs });
        coldMs.push(cold.readyMs);
        const memory = await settledMemory(cold);
        rss.push(memory.rssMb);
        if (attempt < PLAN.coldStarts) await cold.stop();
        else kept = cold;
      }
      details.startsMs.embeddedCold = coldMs;
      board.set('start.cold', median(coldMs) / 1000, {
        note: `each: ${coldMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
      });
      details.memory.embeddedStart = kept?.memory() ?? null;
      board.set('memory.embedded.start', median(rss), {
        note: `median of ${rss.length} starts, ${PLAN.settleMs / 1000} s after ready`,
      });
      return kept;
    },
  );
  if (!server) return;

  try {
    // 1. Sign-in under load, with the correct password (failed sign-ins are rate limited).
    await step('sign-in load', ['signin.rate', 'signin.ratio'], async () => {
      await signIn(server.baseUrl);
      progress(`embedded: sign-in with ${PLAN.signIn.connections} connections for ${PLAN.signIn.seconds} s`);
      const figures = await runLoad({
        title: 'sign-in',
        url: `${server.baseUrl}/api/users/auth/sign-in`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO_ACCOUNT),
        connections: PLAN.signIn.connections,
        durationSeconds: PLAN.signIn.seconds,
        warmupSeconds: PLAN.signIn.warmup,
        server,
      });
      details.loads.signIn = figures;
      const problem = loadProblem(figures);
      board.set('signin.rate', figures.okPerSecond, { problem, note: latencyNote(figures) });
      const raw = details.argon2?.verify.perSecond;
      if (raw) board.set('signin.ratio', figures.okPerSecond / raw, { problem });
      else board.fail('signin.ratio', 'ERROR', 'no raw verify figure to compare with');
    });

    // 2. Token renewal through the session cookie.
    await step('token renewal load', ['token.'], async () => {
      const session = await signIn(server.baseUrl);
      await issueToken(server.baseUrl, session.cookie);
      progress(`embedded: token renewal with ${PLAN.token.connections} connections for ${PLAN.token.seconds} s`);
      const figures = await runLoad({
        title: 'token renewal',
        url: `${server.baseUrl}/api/users/auth/token`,
        method: 'POST',
        headers: { cookie: session.cookie },
        connections: PLAN.token.connections,
        durationSeconds: PLAN.token.seconds,
        warmupSeconds: PLAN.token.warmup,
        server,
      });
      details.loads.token = figures;
      board.set('token.rate', figures.okPerSecond, { problem: loadProblem(figures), note: latencyNote(figures) });
    });

    // 3. A bearer-verified read.
    await step('groups load (embedded)', ['groups.'], async () => {
      const figures = await loadGroups(server, 'groupsEmbedded');
      const problem = loadProblem(figures);
      board.set('groups.rate', figures.okPerSecond, {
        problem,
        note: `autocannon mean ${figures.reqPerSecondAverage.toFixed(0)}, median ${figures.reqPerSecondMedian.toFixed(0)} req/s per second sampled`,
      });
      board.set('groups.p99', figures.latencyMs.p99, { problem, note: latencyNote(figures) });
    });

    // 5. Memory after the load above.
    await step('memory after load (embedded)', ['memory.embedded.load'], async () => {
      const memory = await settledMemory(server);
      details.memory.embeddedAfterLoad = memory;
      board.set('memory.embedded.load', memory.rssMb, { note: `peak RSS during the run ${memory.peakRssMb.toFixed(0)} MB` });
    });
  } finally {
    await server.stop();
  }
}

async function postgresSuite(dataDir: string) {
  const prefixes = ['pg.'];
  const database = await step('PostgreSQL scratch database', prefixes, createScratchDatabase);
  if (!database) return;
  cleanup.database = database.name;
  details.postgres = { serverVersion: database.serverVersion };
  try {
    await step('PostgreSQL server', prefixes, async () => {
      progress(`PostgreSQL ${database.serverVersion}: first start (migrations + demo seed)`);
      const first = await startServer({
        label: 'PostgreSQL first start',
        dataDir,
        databaseUrl: database.url,
        timeoutMs: PLAN.firstStartTimeoutMs,
      });
      details.startsMs.postgresFirst = [first.readyMs];
      board.set('pg.start.first', first.readyMs / 1000);
      await first.stop();

      progress('PostgreSQL: cold start');
      const server = await startServer({
        label: 'PostgreSQL cold start',
        dataDir,
        databaseUrl: database.url,
        timeoutMs: PLAN.coldStartTimeoutMs,
      });
      try {
        details.startsMs.postgresCold = [server.readyMs];
        board.set('pg.start.cold', server.readyMs / 1000);
        const atStart = await settledMemory(server);
        details.memory.postgresStart = atStart;
        board.set('pg.memory.start', atStart.rssMb, { note: `${PLAN.settleMs / 1000} s after ready` });

        const figures = await loadGroups(server, 'groupsPostgres');
        const problem = loadProblem(figures);
        board.set('pg.groups.rate', figures.okPerSecond, { problem });
        board.set('pg.groups.p99', figures.latencyMs.p99, { problem, note: latencyNote(figures) });

        const afterLoad = await settledMemory(server);
        details.memory.postgresAfterLoad = afterLoad;
        board.set('pg.memory.load', afterLoad.rssMb, { note: `peak RSS during the run ${afterLoad.peakRssMb.toFixed(0)} MB` });
      } finally {
        await server.stop();
      }
    });
  } finally {
    await step('drop the PostgreSQL scratch database', [], () => dropScratchDatabase(database.name));
    cleanup.database = null;
  }
}

function latencyNote(figures: LoadFigures): string {
  const { average, p50, p99, max } = figures.latencyMs;
  const cpu =
    figures.serverCores === null
      ? ''
      : `; server CPU ${figures.serverCores.toFixed(2)} cores, load generator ${figures.loaderCores.toFixed(2)}`;
  return `latency mean ${average.toFixed(1)} / p50 ${p50} / p99 ${p99} / max ${max} ms${cpu}`;
}

function renderLoads(): string {
  const rows = Object.entries(details.loads).map(([key, f]) =>
    [
      key.padEnd(16),
      `c=${String(f.connections).padEnd(3)}`,
      `${f.durationSeconds.toFixed(1)} s`.padStart(7),
      `${f.okPerSecond.toFixed(0)} ok/s`.padStart(11),
      `mean ${f.reqPerSecondAverage.toFixed(0)}`.padStart(10),
      `p50 ${f.reqPerSecondMedian.toFixed(0)} req/s`.padStart(15),
      `lat p50 ${f.latencyMs.p50}`.padStart(12),
      `p99 ${f.latencyMs.p99}`.padStart(8),
      `max ${f.latencyMs.max} ms`.padStart(12),
      `non-2xx ${f.non2xx}`.padStart(10),
      f.serverCores === null ? '' : `server ${f.serverCores.toFixed(2)} cores`,
      `loader ${f.loaderCores.toFixed(2)} cores`,
    ].join('  '),
  );
  return rows.length > 0 ? ['load runs (autocannon):', ...rows.map((row) => `  ${row}`)].join('\n') : '';
}

async function main() {
  const startedAt = new Date();
  const machine = machineFacts();
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'patientsim-bench-'));
  cleanup.tmpRoot = tmpRoot;
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${PLAN.watchdogMs / 60_000} min; stopping every server and giving up`);
    killAllServers();
    process.exit(1);
  }, PLAN.watchdogMs);
  watchdog.unref();

  console.info(`PatientSim benchmarks — ${startedAt.toISOString()}`);
  console.info(renderMachine(machine));
  console.info('');

  try {
    // 1 (raw half). Measured first, while no server runs, so nothing else competes for the cores.
    await step('raw argon2id throughput', ['signin.'], async () => {
      progress(`argon2id: hash, then verify, ${PLAN.argon2.concurrency} at a time for ${PLAN.argon2.seconds} s each`);
      const figures = await measureArgon2({ password: DEMO_ACCOUNT.password, ...PLAN.argon2 });
      details.argon2 = figures;
      board.set('signin.hash', figures.hash.perSecond, { note: `${figures.hash.meanMs.toFixed(1)} ms a hash` });
      board.set('signin.verify', figures.verify.perSecond, { note: `${figures.verify.meanMs.toFixed(1)} ms a verify` });
    });

    await embeddedSuite(path.join(tmpRoot, 'embedded'));
    await postgresSuite(path.join(tmpRoot, 'postgres'));
  } finally {
    killAllServers();
    rmSync(tmpRoot, { recursive: true, force: true });
    clearTimeout(watchdog);
  }

  const finishedAt = new Date();
  const loads = renderLoads();
  console.info('');
  if (loads) console.info(`${loads}\n`);
  console.info(renderTable(board));
  console.info(`run took ${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(0)} s`);

  const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'latest.json');
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    machine,
    plan: PLAN,
    lines: board.lines,
    details,
    errors,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.info(`results written to ${path.relative(REPO_ROOT, file)}`);

  if (errors.length > 0) {
    console.error(`${errors.length} step(s) crashed: ${errors.map((error) => error.step).join(', ')}`);
    process.exitCode = 1;
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    if (cleanup.tmpRoot) rmSync(cleanup.tmpRoot, { recursive: true, force: true });
    const drop = cleanup.database ? dropScratchDatabase(cleanup.database).catch(() => {}) : Promise.resolve();
    void Promise.race([drop, sleep(3_000)]).finally(() => process.exit(130));
  });
}
process.once('exit', () => killAllServers());

try {
  await main();
} catch (error) {
  killAllServers();
  console.error(error);
  process.exitCode = 1;
}
