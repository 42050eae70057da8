/**
 * PatientSim benchmark suite: `npm run bench` (builds first). One run measures, on this machine:
 *   1. sign-in throughput against raw argon2id verify throughput (same hashing functions)
 *   2. ID token renewal through the session cookie
 *   3. a bearer-verified API read (a user's groups) on the embedded database
 *   4. cold start to the first 200 from /readyz
 *   5. server memory (RSS) after the first start (migrations + demo seed), after cold starts and
 *      after the loads, embedded and on PostgreSQL
 *   6. member listing, member and user search, and bulk invitations with 100,000 users (embedded)
 *      and 1,000,000 users (PostgreSQL), see members.ts
 *   7. the first page: the JavaScript the sign-in, sign-up and profile pages load before they are
 *      usable, and their Lighthouse scores, see first-page.ts
 *   8. sign-in at twice the load that saturates the server: answers by status, p99 of the accepted,
 *      longest answer against 10 s, see overload.ts
 *  10. the sign-in and bearer-read loads against one and two server processes behind HAProxy, see
 *      processes.ts
 *  11. the case library with 100,000 cases: the first page and a deep filtered page of
 *      caseConfigurations, embedded and on PostgreSQL, see cases.ts
 * Sections 1–5 are `core`, section 6 is `members`, section 7 `first-page`, section 8 `overload`, section 10 `processes`, section 11 `cases`; `npm run bench -- members` runs one of them
 * (see USAGE); `--soak` runs a 30-minute memory soak (section 9, see soak.ts). It prints tables of figures, targets and verdicts and writes
 * bench/results/latest.json. A missed target never fails the run; only a crash does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CASES_PLAN, CASES_TARGETS, type CasesOptions, type CasesResult, casesSuite, renderCases } from './cases/cases.js';
import { FIRST_PAGE_PLAN, FIRST_PAGE_TARGETS, type FirstPageResult, firstPageSuite } from './first-page/first-page.js';
import { measureArgon2, measureVerify, type ThroughputFigures } from './core/argon2.js';
import { PROCESSES_PLAN, type ProcessesResult, processesSuite, renderProcesses } from './processes/processes.js';
import { OVERLOAD_PLAN, OVERLOAD_TARGETS, type OverloadResult, overloadSuite, renderOverload } from './overload/overload.js';
import { NOISY_CORES, waitForQuiet, watchCpu } from './lib/cpu.js';
import { DEMO_ACCOUNT, getOk, issueToken, signIn } from './lib/http.js';
import { type LoadFigures, loadProblem, runLoad } from './lib/load.js';
import { machineFacts } from './lib/machine.js';
import { backendPids, createScratchDatabase, dropScratchDatabase } from './lib/postgres.js';
import { renderMachine, renderTable, Scoreboard } from './lib/report.js';
import {
  MEMBERS_PLAN,
  MEMBERS_TARGETS,
  type MembersOptions,
  type MembersResult,
  membersSuite,
  renderMembers,
} from './members/members.js';
import {
  killAllServers,
  type MemoryFigures,
  REPO_ROOT,
  type RunningServer,
  type StartOptions,
  startServer,
} from './lib/server.js';
import { median, round, sleep } from './lib/stats.js';
import type { Engine, SuiteContext } from './lib/suite.js';
import {
  renderSoak,
  SOAK_ARGS,
  SOAK_PLAN,
  SOAK_TARGETS,
  SOAK_USAGE,
  type SoakResult,
  soakOptionsFrom,
  soakSuite,
  soakWatchdogMs,
} from './soak/soak.js';

const USAGE = `usage: npm run bench [-- [core] [members] [options]]
  core                   sections 1–5: sign-in, token renewal, bearer read, starts, memory
  members                section 6: member list, member and user search, bulk invitations at scale
  first-page             section 7: JavaScript before the first pages are usable, Lighthouse scores
  overload               section 8: sign-in at twice the load that saturates the server (about a minute)
  processes              section 10: sign-in and bearer read on one and two processes behind HAProxy
  cases                  section 11: the case library (GraphQL caseConfigurations) with 100,000 cases
                         (without a section name, all of them run)
options for members and cases:
  --engine <name>        embedded or postgres (repeat for both; default both)
  --cases <n>            generated cases on each engine (default ${CASES_PLAN.cases.postgres})
  --embedded-users <n>   generated users on the embedded engine (default ${MEMBERS_PLAN.users.embedded})
  --postgres-users <n>   generated users on PostgreSQL (default ${MEMBERS_PLAN.users.postgres})
  --org-members <n>      of them, members of the large organisation (default ${MEMBERS_PLAN.orgMembers})
${SOAK_USAGE}`;

type Section = 'core' | 'members' | 'first-page' | 'overload' | 'processes' | 'cases';
const SECTIONS: readonly Section[] = ['core', 'members', 'first-page', 'overload', 'processes', 'cases'];

/** The sections and sizes asked for on the command line. */
function parseCommandLine(): {
  sections: Set<Section>;
  members: MembersOptions;
  cases: CasesOptions;
  soak: ReturnType<typeof soakOptionsFrom>;
} {
  const count = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a positive integer, not ${value}`);
    return parsed;
  };
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      engine: { type: 'string', multiple: true },
      'embedded-users': { type: 'string' },
      'postgres-users': { type: 'string' },
      'org-members': { type: 'string' },
      cases: { type: 'string' },
      ...SOAK_ARGS,
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.info(USAGE);
    process.exit(0);
  }
  for (const name of positionals) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`unknown section ${name}`);
  const sections = new Set<Section>(positionals.length > 0 || values.soak ? (positionals as Section[]) : SECTIONS);
  for (const name of values.engine ?? [])
    if (name !== 'embedded' && name !== 'postgres') throw new Error(`unknown engine ${name}`);
  const engines = (values.engine as Engine[] | undefined) ?? ['embedded', 'postgres'];
  const users = {
    embedded: count('embedded-users', values['embedded-users'], MEMBERS_PLAN.users.embedded),
    postgres: count('postgres-users', values['postgres-users'], MEMBERS_PLAN.users.postgres),
  };
  const orgMembers = count('org-members', values['org-members'], MEMBERS_PLAN.orgMembers);
  for (const engine of engines) {
    if (orgMembers > users[engine])
      throw new Error(`--org-members (${orgMembers}) exceeds the ${engine} users (${users[engine]})`);
  }
  const cases = count('cases', values.cases, CASES_PLAN.cases.postgres);
  return {
    sections,
    members: { engines: [...new Set(engines)], users, orgMembers },
    cases: { engines: [...new Set(engines)], cases: { embedded: cases, postgres: cases } },
    soak: soakOptionsFrom(values),
  };
}

let commandLine: ReturnType<typeof parseCommandLine>;
try {
  commandLine = parseCommandLine();
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
const { sections, soak: soakOptions } = commandLine;

/** How each measurement is bounded; the whole run stays within a few minutes on 2 cores. */
const PLAN = {
  /**
   * Raw hashing; verify is sampled again for `verifyAfterSeconds` right after the sign-in load. As
   * many calls at a time as the sign-in load has connections: both sides then keep as much work in
   * flight (with 2 on 2 cores the raw side left a tenth of the machine idle between calls, which
   * flattered the ratio).
   */
  argon2: { concurrency: 4, seconds: 5, verifyAfterSeconds: 3 },
  /** A fresh process compiles its hot paths (PGlite's WebAssembly among them) in its first seconds of load (decision 0030). */
  signIn: { connections: 4, seconds: 8, warmup: 5 },
  token: { connections: 10, seconds: 8, warmup: 1 },
  groups: { connections: 10, seconds: 10, warmup: 2 },
  coldStarts: 3,
  /** Pause after /readyz before reading RSS, so the figure is of a settled process. */
  settleMs: 1_000,
  firstStartTimeoutMs: 120_000,
  coldStartTimeoutMs: 60_000,
  /** Longest wait, before each measurement, for other processes on the machine to go quiet. */
  quietWaitMs: 5_000,
  /** Hard stop for the whole run, servers included: this for sections 1–5 … */
  watchdogMs: 8 * 60_000,
  /** … and this more for section 6 (a million rows to write and index on a busy machine). */
  membersWatchdogMs: 30 * 60_000,
  /** … and this for section 11 (100,000 cases to write and index on each engine). */
  casesWatchdogMs: 20 * 60_000,
} as const;

const TARGETS = {
  signInRatio: 0.6,
  tokenPerSecond: 1_000,
  groupsPerSecond: 3_000,
  groupsP99Ms: 30,
  coldStartSeconds: 5,
  rssEmbeddedMb: 450,
  rssPostgresMb: 200,
} as const;

const coreLines: ConstructorParameters<typeof Scoreboard>[0] = [
  { id: 'signin.hash', section: 1, label: `argon2id hash, raw (${PLAN.argon2.concurrency} at a time)`, unit: '/s', digits: 1 },
  {
    id: 'signin.verify',
    section: 1,
    label: `argon2id verify, raw (${PLAN.argon2.concurrency} at a time)`,
    unit: '/s',
    digits: 1,
  },
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
  { id: 'signin.cpuRatio', section: 1, label: 'sign-in ÷ raw verify, per CPU-second used', unit: '', digits: 2 },
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
    id: 'memory.first.start',
    section: 5,
    label: 'RSS after the first start (migrations + demo seed), embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.first.load',
    section: 5,
    label: 'RSS of that first-start process after the loads of 1–3, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.first.prepare',
    section: 5,
    label: 'peak RSS of the process that prepares a new embedded database (first start)',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.first.peak',
    section: 5,
    label: 'peak RSS of the first-start server process, spawn to 1 s after ready',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.start',
    section: 5,
    label: 'RSS after a cold start, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.peak',
    section: 5,
    label: `peak RSS of a cold-started server process, spawn to 1 s after ready (median of ${PLAN.coldStarts})`,
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  {
    id: 'memory.embedded.load',
    section: 5,
    label: 'RSS of a cold-started process after the loads of 1–3, embedded',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssEmbeddedMb },
  },
  { id: 'pg.start.first', section: 5, label: 'first start (migrations + demo seed), PostgreSQL', unit: 's', digits: 2 },
  {
    id: 'pg.memory.first',
    section: 5,
    label: 'RSS after the first start (migrations + demo seed), PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssPostgresMb },
  },
  { id: 'pg.start.cold', section: 5, label: 'cold start to /readyz 200, PostgreSQL', unit: 's', digits: 2 },
  {
    id: 'pg.memory.start',
    section: 5,
    label: 'RSS after a cold start, PostgreSQL',
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
    label: 'RSS after the loads of 1–3, PostgreSQL',
    unit: 'MB',
    digits: 0,
    target: { op: '<=', value: TARGETS.rssPostgresMb },
  },
];
const board = new Scoreboard(sections.has('core') ? coreLines : []);
/** Section 7's lines, once it ran. */
let firstPageLines: Scoreboard | null = null;
/** The soak's lines, once it ran. */
let soakBoard: Scoreboard | null = null;

type Details = {
  argon2?: { hash: ThroughputFigures; verify: ThroughputFigures; verifyAfterSignIn?: ThroughputFigures };
  loads: Record<string, LoadFigures>;
  startsMs: Record<string, number[]>;
  memory: Record<string, MemoryFigures | null>;
  postgres?: { serverVersion: string };
  members?: MembersResult;
  cases?: CasesResult;
  processes?: ProcessesResult;
  overload?: OverloadResult;
  firstPage?: Omit<FirstPageResult, 'board'>;
  soak?: SoakResult | null;
  /** Cores other processes used during each measurement (a shared machine skews figures). */
  backgroundCores: Record<string, number | null>;
};

const details: Details = { loads: {}, startsMs: {}, memory: {}, backgroundCores: {} };
const errors: { step: string; message: string }[] = [];

const progress = (message: string) => console.info(`· ${message}`);

/** What an interrupted run must still undo: the scratch directory and databases. */
const cleanup = { tmpRoot: null as string | null, databases: new Set<string>() };

/** Waits briefly for a quiet machine before a measurement. */
async function quiet(what: string, serverPid?: number) {
  const background = await waitForQuiet({ maxWaitMs: PLAN.quietWaitMs, serverPid });
  if (background !== null && background >= NOISY_CORES) {
    progress(`  (other processes still use ${background.toFixed(2)} cores; measuring ${what} anyway)`);
  }
}

/** A note for a figure measured while other processes kept the machine busy. */
function noise(key: string, otherCores: number | null): string | undefined {
  details.backgroundCores[key] = otherCores;
  if (otherCores === null || otherCores < NOISY_CORES) return undefined;
  return `⚠ other processes used ${otherCores.toFixed(2)} cores meanwhile: figure unreliable`;
}

const joinNotes = (...notes: (string | undefined)[]) => notes.filter(Boolean).join('; ') || undefined;

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

/** Runs one load after a wait for a quiet machine, and keeps its figures. */
async function measureLoad(key: string, server: RunningServer, options: Omit<Parameters<typeof runLoad>[0], 'title' | 'server'>) {
  await quiet(key, server.pid);
  const figures = await runLoad({ ...options, title: key, server });
  details.loads[key] = figures;
  return { figures, problem: loadProblem(figures), noise: noise(key, figures.otherCores) };
}

/** Signs in once, takes an ID token, checks the groups read answers 200 and loads it. */
async function loadGroups(server: RunningServer, key: string, databasePids?: () => Promise<number[]>) {
  const session = await signIn(server.baseUrl);
  const token = await issueToken(server.baseUrl, session.cookie);
  const url = groupsUrl(server, session.userId);
  const headers = { authorization: `Bearer ${token.idToken}` };
  await getOk(url, headers);
  progress(`${key}: GET …/groups with ${PLAN.groups.connections} connections for ${PLAN.groups.seconds} s`);
  return measureLoad(key, server, {
    url,
    headers,
    connections: PLAN.groups.connections,
    durationSeconds: PLAN.groups.seconds,
    warmupSeconds: PLAN.groups.warmup,
    ...(databasePids ? { databasePids } : {}),
  });
}

/** 4 and 5 (start): the first start migrates and seeds; then cold starts of new processes on that directory. */
async function startEmbedded(dataDir: string): Promise<RunningServer | undefined> {
  return step(
    'embedded starts',
    ['start.', 'memory.embedded', 'memory.first', 'signin.rate', 'signin.ratio', 'signin.cpuRatio', 'token.', 'groups.'],
    async () => {
      progress('embedded: first start (migrations + demo seed)');
      const first = await timedStart({
        label: 'embedded first start',
        dataDir,
        timeoutMs: PLAN.firstStartTimeoutMs,
      });
      details.startsMs.embeddedFirst = [first.server.readyMs];
      board.set('start.first', first.server.readyMs / 1000, { note: noise('startEmbeddedFirst', first.otherCores) });
      try {
        await firstStartMemory(first.server);
      } finally {
        await first.server.stop();
      }

      const coldMs: number[] = [];
      const rss: number[] = [];
      const peaks: number[] = [];
      const others: number[] = [];
      let kept: RunningServer | undefined;
      for (let attempt = 1; attempt <= PLAN.coldStarts; attempt += 1) {
        progress(`embedded: cold start ${attempt}/${PLAN.coldStarts}`);
        const cold = await timedStart({
          label: `embedded cold start ${attempt}`,
          dataDir,
          timeoutMs: PLAN.coldStartTimeoutMs,
        });
        others.push(cold.otherCores ?? 0);
        coldMs.push(cold.server.readyMs);
        const settled = await settledMemory(cold.server);
        rss.push(settled.rssMb);
        peaks.push(settled.peakRssMb);
        if (attempt < PLAN.coldStarts) await cold.server.stop();
        else kept = cold.server;
      }
      details.startsMs.embeddedCold = coldMs;
      board.set('start.cold', median(coldMs) / 1000, {
        note: joinNotes(
          `each: ${coldMs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`,
          noise('startEmbeddedCold', Math.max(...others)),
        ),
      });
      details.memory.embeddedStart = kept?.memory() ?? null;
      board.set('memory.embedded.start', median(rss), {
        note: `median of ${rss.length} starts (${rss.map((mb) => mb.toFixed(0)).join(', ')}), ${PLAN.settleMs / 1000} s after ready`,
      });
      board.set('memory.embedded.peak', median(peaks), {
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
async function firstStartMemory(server: RunningServer) {
  await step('memory of the first start (embedded)', ['memory.first'], async () => {
    const preparers = server.startChildren;
    if (preparers.length > 0) {
      board.set('memory.first.prepare', Math.max(...preparers.map((child) => child.peakRssMb)), {
        note: `VmHWM sampled every ~20 ms while it ran; ${preparers.length} process(es)`,
      });
    } else {
      board.fail('memory.first.prepare', 'SKIP', 'the server started no other process: it prepared the database itself');
    }
    const atStart = await settledMemory(server);
    details.memory.firstStart = atStart;
    board.set('memory.first.peak', atStart.peakRssMb, { note: 'VmHWM' });
    board.set('memory.first.start', atStart.rssMb, { note: `${PLAN.settleMs / 1000} s after ready; ${memoryNote(atStart)}` });
    const problems = await replayLoads(server, 'firstStart', ['signIn', 'token', 'groups']);
    const afterLoad = await settledMemory(server);
    details.memory.firstStartAfterLoad = afterLoad;
    board.set('memory.first.load', afterLoad.rssMb, {
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
  server: RunningServer,
  key: string,
  loads: readonly CoreLoad[],
  databasePids?: () => Promise<number[]>,
) {
  const session = await signIn(server.baseUrl);
  const token = await issueToken(server.baseUrl, session.cookie);
  const runs: Record<CoreLoad, Omit<Parameters<typeof runLoad>[0], 'title' | 'server'>> = {
    signIn: {
      url: `${server.baseUrl}/api/users/auth/sign-in`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_ACCOUNT),
      connections: PLAN.signIn.connections,
      durationSeconds: PLAN.signIn.seconds,
      warmupSeconds: PLAN.signIn.warmup,
    },
    token: {
      url: `${server.baseUrl}/api/users/auth/token`,
      method: 'POST',
      headers: { cookie: session.cookie },
      connections: PLAN.token.connections,
      durationSeconds: PLAN.token.seconds,
      warmupSeconds: PLAN.token.warmup,
    },
    groups: {
      url: groupsUrl(server, session.userId),
      headers: { authorization: `Bearer ${token.idToken}` },
      connections: PLAN.groups.connections,
      durationSeconds: PLAN.groups.seconds,
      warmupSeconds: PLAN.groups.warmup,
    },
  };
  const problems: string[] = [];
  for (const load of loads) {
    const options = runs[load];
    progress(`${key}: ${load} with ${options.connections} connections for ${options.durationSeconds} s`);
    const { problem } = await measureLoad(`${key}.${load}`, server, { ...options, ...(databasePids ? { databasePids } : {}) });
    if (problem) problems.push(`${load}: ${problem}`);
  }
  return problems;
}

/** 1 (raw half): argon2id in this process, measured while the server idles. */
async function rawArgon2() {
  await step('raw argon2id throughput', ['signin.'], async () => {
    progress(`argon2id: hash, then verify, ${PLAN.argon2.concurrency} at a time for ${PLAN.argon2.seconds} s each`);
    await quiet('argon2id');
    const figures = await measureArgon2({ password: DEMO_ACCOUNT.password, ...PLAN.argon2 });
    details.argon2 = figures;
    const cores = (f: ThroughputFigures) => `${f.meanMs.toFixed(1)} ms each, ${f.cores.toFixed(2)} cores busy`;
    board.set('signin.hash', figures.hash.perSecond, {
      note: joinNotes(cores(figures.hash), noise('argon2Hash', figures.hash.otherCores)),
    });
    board.set('signin.verify', figures.verify.perSecond, {
      note: joinNotes(cores(figures.verify), noise('argon2Verify', figures.verify.otherCores)),
    });
  });
}

async function embeddedLoads(server: RunningServer) {
  // 1. Sign-in under load, with the correct password (failed sign-ins are rate limited).
  await step('sign-in load', ['signin.rate', 'signin.ratio', 'signin.cpuRatio'], async () => {
    await signIn(server.baseUrl);
    progress(`embedded: sign-in with ${PLAN.signIn.connections} connections for ${PLAN.signIn.seconds} s`);
    const {
      figures,
      problem,
      noise: noisy,
    } = await measureLoad('signIn', server, {
      url: `${server.baseUrl}/api/users/auth/sign-in`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_ACCOUNT),
      connections: PLAN.signIn.connections,
      durationSeconds: PLAN.signIn.seconds,
      warmupSeconds: PLAN.signIn.warmup,
    });
    board.set('signin.rate', figures.okPerSecond, { problem, note: joinNotes(latencyNote(figures), noisy) });

    // Raw verify again right after, so a change in background load hits both sides of the ratio.
    const before = details.argon2?.verify;
    if (!before) {
      board.fail('signin.', 'ERROR', 'no raw verify figure to compare with');
      return;
    }
    const after = await measureVerify({
      password: DEMO_ACCOUNT.password,
      concurrency: PLAN.argon2.concurrency,
      seconds: PLAN.argon2.verifyAfterSeconds,
    });
    details.argon2 = { ...details.argon2!, verifyAfterSignIn: after };
    const operations = before.operations + after.operations;
    const seconds = before.seconds + after.seconds;
    const raw = operations / seconds;
    board.set('signin.verify', raw, {
      note: joinNotes(
        `${before.perSecond.toFixed(1)} /s before and ${after.perSecond.toFixed(1)} /s after the sign-in load; ${before.meanMs.toFixed(1)} ms each`,
        noise('argon2Verify', Math.max(before.otherCores ?? 0, after.otherCores ?? 0)),
      ),
    });
    board.set('signin.ratio', figures.okPerSecond / raw, { problem });
    const rawPerCpuSecond = operations / (before.cores * before.seconds + after.cores * after.seconds);
    if (figures.serverCores) {
      board.set('signin.cpuRatio', figures.okPerSecond / figures.serverCores / rawPerCpuSecond, {
        note: `${(1000 / rawPerCpuSecond).toFixed(1)} ms CPU a raw verify, ${((1000 * figures.serverCores) / figures.okPerSecond).toFixed(1)} ms server CPU a sign-in`,
      });
    }
  });

  // 2. Token renewal through the session cookie.
  await step('token renewal load', ['token.'], async () => {
    const session = await signIn(server.baseUrl);
    await issueToken(server.baseUrl, session.cookie);
    progress(`embedded: token renewal with ${PLAN.token.connections} connections for ${PLAN.token.seconds} s`);
    const {
      figures,
      problem,
      noise: noisy,
    } = await measureLoad('token', server, {
      url: `${server.baseUrl}/api/users/auth/token`,
      method: 'POST',
      headers: { cookie: session.cookie },
      connections: PLAN.token.connections,
      durationSeconds: PLAN.token.seconds,
      warmupSeconds: PLAN.token.warmup,
    });
    board.set('token.rate', figures.okPerSecond, { problem, note: joinNotes(latencyNote(figures), noisy) });
  });

  // 3. A bearer-verified read.
  await step('groups load (embedded)', ['groups.'], async () => {
    const { figures, problem, noise: noisy } = await loadGroups(server, 'groupsEmbedded');
    board.set('groups.rate', figures.okPerSecond, {
      problem,
      note: joinNotes(
        `autocannon per-second samples: mean ${figures.reqPerSecondAverage.toFixed(0)}, median ${figures.reqPerSecondMedian.toFixed(0)}`,
        noisy,
      ),
    });
    board.set('groups.p99', figures.latencyMs.p99, { problem, note: latencyNote(figures) });
  });

  // 5. Memory after the load above.
  await step('memory after load (embedded)', ['memory.embedded.load'], async () => {
    const memory = await settledMemory(server);
    details.memory.embeddedAfterLoad = memory;
    board.set('memory.embedded.load', memory.rssMb, { note: memoryNote(memory) });
  });
}

async function postgresSuite(dataDir: string) {
  const prefixes = ['pg.'];
  const database = await step('PostgreSQL scratch database', prefixes, createScratchDatabase);
  if (!database) return;
  cleanup.databases.add(database.name);
  details.postgres = { serverVersion: database.serverVersion };
  try {
    await step('PostgreSQL server', prefixes, async () => {
      progress(`PostgreSQL ${database.serverVersion}: first start (migrations + demo seed)`);
      const first = await timedStart({
        label: 'PostgreSQL first start',
        dataDir,
        databaseUrl: database.url,
        timeoutMs: PLAN.firstStartTimeoutMs,
      });
      details.startsMs.postgresFirst = [first.server.readyMs];
      board.set('pg.start.first', first.server.readyMs / 1000, { note: noise('startPostgresFirst', first.otherCores) });
      try {
        const atFirst = await settledMemory(first.server);
        details.memory.postgresFirstStart = atFirst;
        board.set('pg.memory.first', atFirst.rssMb, { note: `${PLAN.settleMs / 1000} s after ready; ${memoryNote(atFirst)}` });
      } finally {
        await first.server.stop();
      }

      progress('PostgreSQL: cold start');
      const cold = await timedStart({
        label: 'PostgreSQL cold start',
        dataDir,
        databaseUrl: database.url,
        timeoutMs: PLAN.coldStartTimeoutMs,
      });
      const server = cold.server;
      try {
        details.startsMs.postgresCold = [server.readyMs];
        board.set('pg.start.cold', server.readyMs / 1000, { note: noise('startPostgresCold', cold.otherCores) });
        const atStart = await settledMemory(server);
        details.memory.postgresStart = atStart;
        board.set('pg.memory.start', atStart.rssMb, { note: `${PLAN.settleMs / 1000} s after ready; ${memoryNote(atStart)}` });

        const databasePids = () => backendPids(database.name);
        // Sign-ins and renewals first, for memory only; the groups read is measured.
        const problems = await replayLoads(server, 'postgres', ['signIn', 'token'], databasePids);
        const { figures, problem, noise: noisy } = await loadGroups(server, 'groupsPostgres', databasePids);
        board.set('pg.groups.rate', figures.okPerSecond, { problem, note: noisy });
        board.set('pg.groups.p99', figures.latencyMs.p99, { problem, note: latencyNote(figures) });

        const afterLoad = await settledMemory(server);
        details.memory.postgresAfterLoad = afterLoad;
        if (problem) problems.push(`groups: ${problem}`);
        board.set('pg.memory.load', afterLoad.rssMb, {
          problem: problems.length > 0 ? problems.join('; ') : null,
          note: memoryNote(afterLoad),
        });
      } finally {
        await server.stop();
      }
    });
  } finally {
    await step('drop the PostgreSQL scratch database', [], () => dropScratchDatabase(database.name));
    cleanup.databases.delete(database.name);
  }
}

/** What section 6 borrows from this runner. */
const membersContext: SuiteContext = {
  progress,
  recordError: (name, message) => errors.push({ step: name, message }),
  timedStart,
  measureLoad,
  quiet,
  noise,
  trackDatabase: (name, live) => {
    if (live) cleanup.databases.add(name);
    else cleanup.databases.delete(name);
  },
};

function memoryNote(memory: MemoryFigures): string {
  return `anonymous ${memory.anonMb.toFixed(0)} MB + file-backed ${memory.fileMb.toFixed(0)} MB; peak ${memory.peakRssMb.toFixed(0)} MB`;
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

function renderLoads(): string {
  const keyWidth = Math.max(15, ...Object.keys(details.loads).map((key) => key.length));
  const rows = Object.entries(details.loads).map(([key, f]) =>
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

async function main() {
  const startedAt = new Date();
  const machine = machineFacts();
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'patientsim-bench-'));
  cleanup.tmpRoot = tmpRoot;
  const watchdogMs =
    (sections.has('core') ? PLAN.watchdogMs : 0) +
    (sections.has('members') ? PLAN.membersWatchdogMs : 0) +
    (sections.has('cases') ? PLAN.casesWatchdogMs : 0) +
    (sections.has('first-page') ? FIRST_PAGE_PLAN.watchdogMs : 0) +
    (sections.has('processes') ? PROCESSES_PLAN.watchdogMs : 0) +
    (sections.has('overload') ? OVERLOAD_PLAN.watchdogMs : 0) +
    (soakOptions ? soakWatchdogMs(soakOptions) : 0);
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${watchdogMs / 60_000} min; stopping every server and giving up`);
    killAllServers();
    process.exit(1);
  }, watchdogMs);
  watchdog.unref();

  console.info(`PatientSim benchmarks — ${startedAt.toISOString()}`);
  console.info(renderMachine(machine));
  console.info('');

  try {
    if (sections.has('core')) {
      const server = await startEmbedded(path.join(tmpRoot, 'embedded'));
      try {
        // Raw hashing right before the sign-in load, so both see the same machine.
        await rawArgon2();
        if (server) await embeddedLoads(server);
      } finally {
        await server?.stop();
      }
      await postgresSuite(path.join(tmpRoot, 'postgres'));
    }
    if (sections.has('members')) {
      details.members = await membersSuite({ ctx: membersContext, tmpRoot, options: commandLine.members });
    }
    if (sections.has('first-page')) {
      const { board: firstPageBoard, ...firstPage } = await firstPageSuite({
        ctx: { progress, timedStart, recordError: membersContext.recordError },
        tmpRoot,
      });
      details.firstPage = firstPage;
      firstPageLines = firstPageBoard;
    }
    if (sections.has('overload')) {
      details.overload = await step('overload', [], () => overloadSuite({ ctx: membersContext, tmpRoot }));
    }
    if (sections.has('processes')) details.processes = await processesSuite({ ctx: membersContext, tmpRoot });
    if (sections.has('cases')) details.cases = await casesSuite({ ctx: membersContext, tmpRoot, options: commandLine.cases });
    if (soakOptions) {
      const soak = await soakSuite({ ctx: membersContext, tmpRoot, options: soakOptions });
      details.soak = soak.result;
      soakBoard = soak.board;
    }
  } finally {
    killAllServers();
    rmSync(tmpRoot, { recursive: true, force: true });
    cleanup.tmpRoot = null;
    clearTimeout(watchdog);
  }

  const finishedAt = new Date();
  const loads = renderLoads();
  console.info('');
  if (loads) console.info(`${loads}\n`);
  if (details.members) console.info(`${renderMembers(details.members)}\n`);
  if (sections.has('core')) console.info(renderTable(board));
  if (firstPageLines) console.info(`\n${renderTable(firstPageLines)}`);
  if (details.overload) console.info(`\n${renderOverload(details.overload)}`);
  if (details.processes) console.info(`\n${renderProcesses(details.processes)}`);
  if (details.cases) console.info(`\n${renderCases(details.cases)}`);
  if (details.soak) console.info(`\n${renderSoak(details.soak)}`);
  if (soakBoard) console.info(`\n${renderTable(soakBoard)}`);
  const noisy = Object.entries(details.backgroundCores).filter(([, cores]) => cores !== null && cores >= NOISY_CORES);
  if (noisy.length > 0) {
    console.info(
      `⚠ other processes were busy during ${noisy.map(([key, cores]) => `${key} (${cores?.toFixed(2)} cores)`).join(', ')}: ` +
        'rerun on a quiet machine before trusting those figures',
    );
  }
  console.info(`run took ${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(0)} s`);

  const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'latest.json');
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    machine,
    sections: [...sections],
    plan: {
      ...PLAN,
      ...(sections.has('members') ? { members: { ...MEMBERS_PLAN, ...commandLine.members } } : {}),
      ...(sections.has('first-page') ? { firstPage: FIRST_PAGE_PLAN } : {}),
      ...(sections.has('overload') ? { overload: OVERLOAD_PLAN } : {}),
      ...(sections.has('processes') ? { processes: PROCESSES_PLAN } : {}),
      ...(sections.has('cases') ? { cases: { ...CASES_PLAN, ...commandLine.cases } } : {}),
      ...(soakOptions ? { soak: { ...SOAK_PLAN, ...soakOptions } } : {}),
    },
    targets: {
      ...TARGETS,
      ...(sections.has('members') ? { members: MEMBERS_TARGETS } : {}),
      ...(sections.has('first-page') ? { firstPage: FIRST_PAGE_TARGETS } : {}),
      ...(sections.has('overload') ? { overload: OVERLOAD_TARGETS } : {}),
      ...(sections.has('cases') ? { cases: CASES_TARGETS } : {}),
      ...(soakOptions ? { soak: SOAK_TARGETS } : {}),
    },
    lines: [...board.lines, ...(firstPageLines?.lines ?? []), ...(soakBoard?.lines ?? [])],
    details,
    errors,
  };
  writeFileSync(
    file,
    `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? round(value, 3) : value), 2)}\n`,
  );
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
    const drop = Promise.all([...cleanup.databases].map((name) => dropScratchDatabase(name).catch(() => {})));
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
