/**
 * PatientSim benchmarks: `npm run bench` (builds first). One run measures, on this machine:
 *   1–5. sign-in against raw argon2id verify, token renewal, a bearer read, cold starts and server
 *      memory, embedded and on PostgreSQL (`core`, bench/core/)
 *   6. member listing, member and user search, and bulk invitations with 100,000 users (embedded)
 *      and 1,000,000 users (PostgreSQL) (`members`, bench/members/)
 *   7. the first page: the JavaScript the sign-in, sign-up and profile pages load before they are
 *      usable, and their Lighthouse scores (`first-page`, bench/first-page/)
 *   8. sign-in at twice the load that saturates the server: answers by status, p99 of the accepted,
 *      longest answer against 10 s (`overload`, bench/overload/)
 *   9. a 30-minute memory soak, only with `--soak` (bench/soak/)
 *  10. the sign-in and bearer-read loads against one and two server processes behind HAProxy
 *      (`processes`, bench/processes/)
 *  11. the case library with 100,000 cases: the first page and a deep filtered page of
 *      caseConfigurations, embedded and on PostgreSQL (`cases`, bench/cases/)
 * `npm run bench -- members` runs one section (see USAGE); without a section name all of them run,
 * or only the soak with `--soak` alone. This file parses the command line, runs the suites asked for,
 * prints their tables and writes bench/results/latest.json. A missed target never fails the run;
 * only a crash does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CASES_PLAN, CASES_TARGETS, type CasesOptions, type CasesResult, casesSuite, renderCases } from './cases/cases.js';
import { CORE_PLAN, CORE_TARGETS, type CoreDetails, coreSuite } from './core/core.js';
import { FIRST_PAGE_PLAN, FIRST_PAGE_TARGETS, type FirstPageResult, firstPageSuite } from './first-page/first-page.js';
import { NOISY_CORES } from './lib/cpu.js';
import { renderLoads } from './lib/load.js';
import { machineFacts } from './lib/machine.js';
import { dropScratchDatabase } from './lib/postgres.js';
import { renderMachine, renderTable, type Scoreboard } from './lib/report.js';
import { killAllServers, REPO_ROOT } from './lib/server.js';
import { round, sleep } from './lib/stats.js';
import { createSuiteContext, type Engine } from './lib/suite.js';
import {
  MEMBERS_PLAN,
  MEMBERS_TARGETS,
  type MembersOptions,
  type MembersResult,
  membersSuite,
  renderMembers,
} from './members/members.js';
import { OIDC_PLAN, OIDC_TARGETS, type OidcResult, oidcSuite, renderOidc } from './oidc/oidc.js';
import { OVERLOAD_PLAN, OVERLOAD_TARGETS, type OverloadResult, overloadSuite, renderOverload } from './overload/overload.js';
import { PROCESSES_PLAN, type ProcessesResult, processesSuite, renderProcesses } from './processes/processes.js';
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
  oidc                   section 12: the OpenID provider's token endpoint (refresh_token grant) to twice saturation
                         (without a section name, all of them run)
options for members and cases:
  --engine <name>        embedded or postgres (repeat for both; default both)
  --cases <n>            generated cases on each engine (default ${CASES_PLAN.cases.postgres})
  --embedded-users <n>   generated users on the embedded engine (default ${MEMBERS_PLAN.users.embedded})
  --postgres-users <n>   generated users on PostgreSQL (default ${MEMBERS_PLAN.users.postgres})
  --org-members <n>      of them, members of the large organisation (default ${MEMBERS_PLAN.orgMembers})
${SOAK_USAGE}`;

type Section = 'core' | 'members' | 'first-page' | 'overload' | 'processes' | 'cases' | 'oidc';
const SECTIONS: readonly Section[] = ['core', 'members', 'first-page', 'overload', 'processes', 'cases', 'oidc'];

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

/** The runner's own bounds; each suite's plan holds the rest. */
const RUN_PLAN = {
  /** Longest wait, before each measurement, for other processes on the machine to go quiet. */
  quietWaitMs: 5_000,
  /** Hard stop for the whole run, servers included: this for sections 1–5 … */
  watchdogMs: 8 * 60_000,
  /** … and this more for section 6 (a million rows to write and index on a busy machine). */
  membersWatchdogMs: 30 * 60_000,
  /** … and this for section 11 (100,000 cases to write and index on each engine). */
  casesWatchdogMs: 20 * 60_000,
} as const;

const { ctx, record } = createSuiteContext({ quietWaitMs: RUN_PLAN.quietWaitMs });

/** What an interrupted run must still undo besides the scratch databases: the scratch directory. */
let scratchDir: string | null = null;

async function main() {
  const startedAt = new Date();
  const machine = machineFacts();
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'patientsim-bench-'));
  scratchDir = tmpRoot;
  const watchdogMs =
    (sections.has('core') ? RUN_PLAN.watchdogMs : 0) +
    (sections.has('members') ? RUN_PLAN.membersWatchdogMs : 0) +
    (sections.has('cases') ? RUN_PLAN.casesWatchdogMs : 0) +
    (sections.has('first-page') ? FIRST_PAGE_PLAN.watchdogMs : 0) +
    (sections.has('processes') ? PROCESSES_PLAN.watchdogMs : 0) +
    (sections.has('overload') ? OVERLOAD_PLAN.watchdogMs : 0) +
    (sections.has('oidc') ? OIDC_PLAN.watchdogMs : 0) +
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

  let core: { board: Scoreboard; details: CoreDetails } | undefined;
  let members: MembersResult | undefined;
  let firstPage: Omit<FirstPageResult, 'board'> | undefined;
  let firstPageBoard: Scoreboard | undefined;
  let overload: OverloadResult | undefined;
  let oidc: OidcResult | undefined;
  let processes: ProcessesResult | undefined;
  let cases: CasesResult | undefined;
  let soak: SoakResult | null | undefined;
  let soakBoard: Scoreboard | undefined;
  try {
    if (sections.has('core')) core = await coreSuite({ ctx, tmpRoot });
    if (sections.has('members')) members = await membersSuite({ ctx, tmpRoot, options: commandLine.members });
    if (sections.has('first-page')) {
      ({ board: firstPageBoard, ...firstPage } = await firstPageSuite({ ctx, tmpRoot }));
    }
    if (sections.has('overload')) {
      try {
        overload = await overloadSuite({ ctx, tmpRoot });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        ctx.recordError('overload', message);
        console.error(`✗ overload failed: ${message}`);
      }
    }
    if (sections.has('oidc')) {
      try {
        oidc = await oidcSuite({ ctx, tmpRoot });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        ctx.recordError('oidc', message);
        console.error(`✗ oidc failed: ${message}`);
      }
    }
    if (sections.has('processes')) processes = await processesSuite({ ctx, tmpRoot });
    if (sections.has('cases')) cases = await casesSuite({ ctx, tmpRoot, options: commandLine.cases });
    if (soakOptions) ({ result: soak, board: soakBoard } = await soakSuite({ ctx, tmpRoot, options: soakOptions }));
  } finally {
    killAllServers();
    rmSync(tmpRoot, { recursive: true, force: true });
    scratchDir = null;
    clearTimeout(watchdog);
  }

  const finishedAt = new Date();
  const loads = renderLoads(record.loads);
  console.info('');
  if (loads) console.info(`${loads}\n`);
  if (members) console.info(`${renderMembers(members)}\n`);
  if (core) console.info(renderTable(core.board));
  if (firstPageBoard) console.info(`\n${renderTable(firstPageBoard)}`);
  if (overload) console.info(`\n${renderOverload(overload)}`);
  if (oidc) console.info(`\n${renderOidc(oidc)}`);
  if (processes) console.info(`\n${renderProcesses(processes)}`);
  if (cases) console.info(`\n${renderCases(cases)}`);
  if (soak) console.info(`\n${renderSoak(soak)}`);
  if (soakBoard) console.info(`\n${renderTable(soakBoard)}`);
  const noisy = Object.entries(record.backgroundCores).filter(([, cores]) => cores !== null && cores >= NOISY_CORES);
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
      ...CORE_PLAN,
      ...RUN_PLAN,
      ...(sections.has('members') ? { members: { ...MEMBERS_PLAN, ...commandLine.members } } : {}),
      ...(sections.has('first-page') ? { firstPage: FIRST_PAGE_PLAN } : {}),
      ...(sections.has('overload') ? { overload: OVERLOAD_PLAN } : {}),
      ...(sections.has('oidc') ? { oidc: OIDC_PLAN } : {}),
      ...(sections.has('processes') ? { processes: PROCESSES_PLAN } : {}),
      ...(sections.has('cases') ? { cases: { ...CASES_PLAN, ...commandLine.cases } } : {}),
      ...(soakOptions ? { soak: { ...SOAK_PLAN, ...soakOptions } } : {}),
    },
    targets: {
      ...CORE_TARGETS,
      ...(sections.has('members') ? { members: MEMBERS_TARGETS } : {}),
      ...(sections.has('first-page') ? { firstPage: FIRST_PAGE_TARGETS } : {}),
      ...(sections.has('overload') ? { overload: OVERLOAD_TARGETS } : {}),
      ...(sections.has('oidc') ? { oidc: OIDC_TARGETS } : {}),
      ...(sections.has('cases') ? { cases: CASES_TARGETS } : {}),
      ...(soakOptions ? { soak: SOAK_TARGETS } : {}),
    },
    lines: [...(core?.board.lines ?? []), ...(firstPageBoard?.lines ?? []), ...(soakBoard?.lines ?? [])],
    details: {
      loads: record.loads,
      startsMs: core?.details.startsMs ?? {},
      memory: core?.details.memory ?? {},
      backgroundCores: record.backgroundCores,
      argon2: core?.details.argon2,
      postgres: core?.details.postgres,
      members,
      firstPage,
      overload,
      oidc,
      processes,
      cases,
      soak,
    },
    errors: record.errors,
  };
  writeFileSync(
    file,
    `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? round(value, 3) : value), 2)}\n`,
  );
  console.info(`results written to ${path.relative(REPO_ROOT, file)}`);

  if (record.errors.length > 0) {
    console.error(`${record.errors.length} step(s) crashed: ${record.errors.map((error) => error.step).join(', ')}`);
    process.exitCode = 1;
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
    const drop = Promise.all([...record.databases].map((name) => dropScratchDatabase(name).catch(() => {})));
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
