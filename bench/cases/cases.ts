/**
 * Section 11 of the benchmarks: the case library at scale. On each engine, a library of 100,000
 * cases in the demo's Riverside EMS Academy (bench/cases/cases-data.ts), read through
 * `POST /api/graphql` (`caseConfigurations`) as the demo's instructor of Riverside:
 *   - the first page in the default order (decision 11), with its count (exact up to 1,000);
 *   - a deep page: "Made by me", sorted by Patient ascending, the page after 100 pages of 50
 *     (reached by following `nextCursor`), the total carried in the cursor.
 * And copying 10 of those cases from that server (the environment 'dev') to another local server
 * (an embedded one with the demo seed, the environment 'staging') with the Cases tool, as the
 * demo's super admin: the wall time of each whole copy (dump, restore over HTTP, compare).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bearerHeaders, DEMO_ACCOUNT, postOk } from '../lib/http.js';
import { CASES_READER_EMAIL, DEFAULT_CASES_PLAN, type FilledCases, fillCases } from './cases-data.js';
import { openPgliteTarget, openPostgresTarget } from '../lib/members-data.js';
import type { Engine, SuiteContext } from '../lib/suite.js';
import { backendPids, createScratchDatabase, dropScratchDatabase } from '../lib/postgres.js';
import { formatNumber, pad } from '../lib/report.js';
import type { RunningServer } from '../lib/server.js';

export const CASES_PLAN = {
  cases: { embedded: 100_000, postgres: 100_000 },
  load: { connections: 4, seconds: 10, warmup: 2 },
  pageSize: 50,
  /** The deep page is the one after this many pages of the filtered, sorted list. */
  deepPages: 100,
  startTimeoutMs: 180_000,
  /** Cases each copy takes, and how many copies are timed (after one untimed). */
  copy: { cases: 10, runs: 3 },
} as const;

/** The demo's super admin, who runs the Cases tool. */
const COPIER_EMAIL = 'super@demo.test';
/** The organisation of the other server the copies go to. */
const COPY_TARGET_ORG = 'Harbor Medic Unit';

/** The other local server the cases are copied to, and what the copying server needs to reach it. */
type CopyPeer = { server: RunningServer; accessCode: string; targetOrg: string };

export const CASES_TARGETS = { p95Ms: { postgres: 20, embedded: 60 } } as const;

type RowKind = 'first' | 'deep' | 'copy';
export type CasesVerdict = 'MEET' | 'MISS' | 'INFO' | 'SKIP' | 'ERROR';
export type CasesRow = {
  id: `${Engine}.${RowKind}`;
  engine: Engine;
  label: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  perSecond: number | null;
  cpuMsPerRequest: number | null;
  targetMs: number | null;
  verdict: CasesVerdict;
  note: string | null;
};
export type CasesEngineSummary = {
  engine: Engine;
  title: string;
  data: FilledCases | null;
  startSeconds: number | null;
  /** The count the first page answered (`1,000+` past the counting limit). */
  total: string | null;
  rssAfterMb: number | null;
};
export type CasesResult = { rows: CasesRow[]; engines: CasesEngineSummary[] };
export type CasesOptions = { engines: readonly Engine[]; cases: Record<Engine, number> };

const ROW_KINDS: readonly RowKind[] = ['first', 'deep', 'copy'];

const LIST_QUERY = `query List($sortBy: CaseSortInput, $filters: CaseFiltersInput, $first: Int, $after: String) {
  caseConfigurations(sortBy: $sortBy, filters: $filters, first: $first, after: $after) {
    items { id name tags isFavorite lastAccessed lastPlayed needsEcUpdate errorsCount warningsCount published applab isTemplate
            updateStatus ignoreEcUpdate author { id name } createdAt
            _avatar { id name { en } picture { url } } _startLocation { name { en } picture { url } } _endLocation { name { en } picture { url } } }
    nextCursor
    totalCount
    totalCountCapped
  }
}`;

const DEEP_FILTERS = { madeByMe: true };
const DEEP_SORT = { field: 'AVATAR_NAME', direction: 'ASC' } as const;

function rowLabel(kind: RowKind): string {
  const c = CASES_PLAN.load.connections;
  const n = CASES_PLAN.pageSize;
  switch (kind) {
    case 'first':
      return `caseConfigurations, first page of ${n}, default order, with its count (c=${c})`;
    case 'deep':
      return `caseConfigurations, Made by me, Patient ↑, page ${CASES_PLAN.deepPages + 1} of ${n} by cursor (c=${c})`;
    case 'copy':
      return 'copy 10 cases between two local servers';
  }
}

type Page = { items: { id: string }[]; nextCursor: string | null; totalCount: number; totalCountCapped: boolean };

async function listPage(server: RunningServer, headers: Record<string, string>, variables: Record<string, unknown>) {
  const body = (await postOk(`${server.baseUrl}/api/graphql`, headers, { query: LIST_QUERY, variables })) as {
    data?: { caseConfigurations?: Page };
    errors?: unknown;
  };
  const page = body.data?.caseConfigurations;
  if (!page) throw new Error(`caseConfigurations answered no page: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
  return page;
}

export async function casesSuite({
  ctx,
  tmpRoot,
  options,
}: {
  ctx: SuiteContext;
  tmpRoot: string;
  options: CasesOptions;
}): Promise<CasesResult> {
  const rows: CasesRow[] = options.engines.flatMap((engine) =>
    ROW_KINDS.map((kind) => ({
      id: `${engine}.${kind}` as const,
      engine,
      label: rowLabel(kind),
      p50: null,
      p95: null,
      p99: null,
      perSecond: null,
      cpuMsPerRequest: null,
      targetMs: kind === 'copy' ? null : CASES_TARGETS.p95Ms[engine],
      verdict: 'ERROR',
      note: null,
    })),
  );
  const row = (engine: Engine, kind: RowKind) => rows.find((candidate) => candidate.id === `${engine}.${kind}`)!;
  let peer: CopyPeer | null = null;
  try {
    peer = await startCopyPeer(ctx, path.join(tmpRoot, 'cases-peer'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.recordError('cases: the server copies go to', message);
    for (const engine of options.engines)
      row(engine, 'copy').note = `the other server did not start: ${message.split('\n', 1)[0]}`;
  }
  try {
    return { rows, engines: await onEngines(ctx, tmpRoot, options, row, peer) };
  } finally {
    await peer?.server.stop();
  }
}

/** The other local server, embedded with the demo seed: the environment 'staging', with its access code. */
async function startCopyPeer(ctx: SuiteContext, dataDir: string): Promise<CopyPeer> {
  const accessCode = randomBytes(24).toString('base64url');
  ctx.progress('cases: starting the server cases are copied to (embedded, demo seed)');
  const { server } = await ctx.timedStart({
    label: 'cases copy target',
    dataDir,
    timeoutMs: CASES_PLAN.startTimeoutMs,
    env: { CASE_ENVIRONMENT_NAME: 'staging', CASE_ACCESS_CODE: accessCode },
  });
  try {
    const headers = await bearerHeaders(server.baseUrl, { email: COPIER_EMAIL, password: DEMO_ACCOUNT.password });
    const response = await fetch(`${server.baseUrl}/api/users/organizations?search=${encodeURIComponent('Harbor')}`, { headers });
    const body = (await response.json()) as { items?: { _id: string; name: string }[] };
    const org = body.items?.find((item) => item.name === COPY_TARGET_ORG);
    if (!response.ok || !org) throw new Error(`${COPY_TARGET_ORG} not found on the other server (${response.status})`);
    return { server, accessCode, targetOrg: org._id };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function onEngines(
  ctx: SuiteContext,
  tmpRoot: string,
  options: CasesOptions,
  row: (engine: Engine, kind: RowKind) => CasesRow,
  peer: CopyPeer | null,
): Promise<CasesEngineSummary[]> {
  const engines: CasesEngineSummary[] = [];
  for (const engine of options.engines) {
    const summary: CasesEngineSummary = {
      engine,
      title: engine === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL',
      data: null,
      startSeconds: null,
      total: null,
      rssAfterMb: null,
    };
    engines.push(summary);
    const fail = (name: string, error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      ctx.recordError(name, message);
      console.error(`✗ ${name} failed: ${message}`);
      for (const kind of ROW_KINDS) {
        const target = row(engine, kind);
        if (target.p95 === null && target.note === null) target.note = `${name} failed: ${message.split('\n', 1)[0]}`;
      }
    };
    const dataDir = path.join(tmpRoot, `cases-${engine}`);
    if (engine === 'embedded') {
      try {
        await onEngine({ ctx, engine, dataDir, cases: options.cases[engine], summary, row, peer });
      } catch (error) {
        fail('cases (embedded)', error);
      }
      continue;
    }
    let database: Awaited<ReturnType<typeof createScratchDatabase>>;
    try {
      database = await createScratchDatabase();
    } catch (error) {
      fail('cases: PostgreSQL scratch database', error);
      continue;
    }
    ctx.trackDatabase(database.name, true);
    summary.title = `PostgreSQL ${database.serverVersion}`;
    try {
      await onEngine({
        ctx,
        engine,
        dataDir,
        database: { url: database.url, pids: () => backendPids(database.name) },
        cases: options.cases[engine],
        summary,
        row,
        peer,
      });
    } catch (error) {
      fail('cases (PostgreSQL)', error);
    } finally {
      try {
        await dropScratchDatabase(database.name);
      } catch (error) {
        fail('cases: drop the PostgreSQL scratch database', error);
      }
      ctx.trackDatabase(database.name, false);
    }
  }
  return engines;
}

async function onEngine(run: {
  ctx: SuiteContext;
  engine: Engine;
  dataDir: string;
  database?: { url: string; pids: () => Promise<number[]> };
  cases: number;
  summary: CasesEngineSummary;
  row: (engine: Engine, kind: RowKind) => CasesRow;
  peer: CopyPeer | null;
}) {
  const { ctx, engine, dataDir, database, summary, peer } = run;
  const startOptions = { dataDir, timeoutMs: CASES_PLAN.startTimeoutMs, ...(database ? { databaseUrl: database.url } : {}) };
  // The server is the environment 'dev' of the Cases tool, the other local server its peer 'staging'.
  const copyEnv = peer
    ? {
        CASE_ENVIRONMENT_NAME: 'dev',
        CASE_ENVIRONMENTS: JSON.stringify({ staging: { url: peer.server.baseUrl, accessCode: peer.accessCode } }),
      }
    : undefined;
  ctx.progress(`cases, ${summary.title}: first start (migrations + demo seed)`);
  const first = await ctx.timedStart({ ...startOptions, label: `cases ${engine} first start` });
  await first.server.stop();

  ctx.progress(`cases, ${summary.title}: generating ${formatNumber(run.cases, 0)} cases`);
  const target = database ? await openPostgresTarget(database.url) : await openPgliteTarget(path.join(dataDir, 'pglite'));
  try {
    summary.data = await fillCases(target, { cases: run.cases, ...DEFAULT_CASES_PLAN });
  } finally {
    await target.close();
  }
  const { seconds } = summary.data;
  ctx.progress(
    `  filled in ${seconds.total.toFixed(1)} s (insert ${seconds.insert.toFixed(1)}, indexes ${seconds.index.toFixed(1)}, vacuum + analyse ${seconds.analyze.toFixed(1)})`,
  );

  ctx.progress(`cases, ${summary.title}: start on the filled database`);
  const { server } = await ctx.timedStart({
    ...startOptions,
    label: `cases ${engine} start`,
    ...(copyEnv ? { env: copyEnv } : {}),
  });
  try {
    summary.startSeconds = server.readyMs / 1000;
    const headers = { ...(await bearerHeaders(server.baseUrl, { email: CASES_READER_EMAIL, password: DEMO_ACCOUNT.password })) };
    const firstVariables = { first: CASES_PLAN.pageSize };
    const firstPage = await listPage(server, headers, firstVariables);
    summary.total = `${formatNumber(firstPage.totalCount, 0)}${firstPage.totalCountCapped ? '+' : ''}`;
    if (firstPage.items.length !== CASES_PLAN.pageSize) throw new Error(`the first page held ${firstPage.items.length} cases`);
    await measure(run, server, 'first', headers, firstVariables, `totalCount ${summary.total}`);

    ctx.progress(`cases, ${summary.title}: following ${CASES_PLAN.deepPages} pages of Made by me, Patient ↑`);
    let after: string | null = null;
    let total = 0;
    for (let page = 0; page < CASES_PLAN.deepPages; page += 1) {
      const answer: Page = await listPage(server, headers, {
        first: CASES_PLAN.pageSize,
        filters: DEEP_FILTERS,
        sortBy: DEEP_SORT,
        ...(after ? { after } : {}),
      });
      if (page === 0) total = answer.totalCount;
      if (!answer.nextCursor) throw new Error(`Made by me ended after ${page + 1} pages (${total} cases)`);
      after = answer.nextCursor;
    }
    const deepVariables = { first: CASES_PLAN.pageSize, filters: DEEP_FILTERS, sortBy: DEEP_SORT, after };
    const deep = await listPage(server, headers, deepVariables);
    if (deep.items.length !== CASES_PLAN.pageSize) throw new Error(`the deep page held ${deep.items.length} cases`);
    await measure(
      run,
      server,
      'deep',
      headers,
      deepVariables,
      `rows ${formatNumber(CASES_PLAN.deepPages * CASES_PLAN.pageSize + 1, 0)}–${formatNumber((CASES_PLAN.deepPages + 1) * CASES_PLAN.pageSize, 0)} of ${formatNumber(total, 0)}`,
    );
    summary.rssAfterMb = server.memory()?.rssMb ?? null;
    if (peer)
      await measureCopy(
        run,
        server,
        peer,
        firstPage.items.slice(0, CASES_PLAN.copy.cases).map((item) => item.id),
      );
  } finally {
    await server.stop();
  }
}

/**
 * Copies the same cases from `server` to the peer's organisation with the Cases tool, once untimed
 * and then `CASES_PLAN.copy.runs` times: the wall time of each whole copy, from the request to the
 * streamed answer's last line. Each copy makes new cases in the peer.
 */
async function measureCopy(run: Parameters<typeof onEngine>[0], server: RunningServer, peer: CopyPeer, caseIds: string[]) {
  const { ctx, engine, summary } = run;
  const target = run.row(engine, 'copy');
  if (caseIds.length !== CASES_PLAN.copy.cases) throw new Error(`only ${caseIds.length} cases to copy`);
  const headers = await bearerHeaders(server.baseUrl, { email: COPIER_EMAIL, password: DEMO_ACCOUNT.password });
  const copyOnce = async () => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/cases/tool/copy`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'dev', target: 'staging', caseIds, targetOrg: peer.targetOrg, ignoreDifferences: false }),
    });
    const lines = (await response.text()).trim().split('\n');
    const ms = performance.now() - started;
    const last = JSON.parse(lines.at(-1) ?? '{}') as { type?: string; message?: string };
    if (!response.ok || last.type !== 'done')
      throw new Error(`the copy answered ${response.status}: ${last.message ?? lines.at(-1)}`);
    return ms;
  };
  ctx.progress(`cases, ${summary.title}: copying ${caseIds.length} cases to the other server, ${CASES_PLAN.copy.runs + 1} times`);
  await copyOnce();
  const times: number[] = [];
  for (let attempt = 0; attempt < CASES_PLAN.copy.runs; attempt += 1) times.push(await copyOnce());
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  target.p50 = median;
  target.p95 = sorted.at(-1)!;
  target.perSecond = (caseIds.length * 1000) / median;
  target.verdict = 'INFO';
  target.note =
    `wall time of a whole copy (dump, restore over HTTP, fetch both, compare; 3 cases at a time), median and slowest of ${times.length} ` +
    `after one untimed (${times.map((ms) => ms.toFixed(0)).join(', ')} ms); req/s here: cases copied a second; to ${COPY_TARGET_ORG} on an embedded server`;
}

async function measure(
  run: Parameters<typeof onEngine>[0],
  server: RunningServer,
  kind: 'first' | 'deep',
  headers: Record<string, string>,
  variables: Record<string, unknown>,
  note: string,
) {
  const { ctx, engine, database, summary } = run;
  const { connections, seconds, warmup } = CASES_PLAN.load;
  ctx.progress(`cases, ${summary.title}: ${rowLabel(kind)}, ${seconds} s`);
  const { figures, problem, noise } = await ctx.measureLoad(`cases.${engine}.${kind}`, server, {
    url: `${server.baseUrl}/api/graphql`,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query: LIST_QUERY, variables }),
    connections,
    durationSeconds: seconds,
    warmupSeconds: warmup,
    ...(database ? { databasePids: database.pids } : {}),
  });
  const target = run.row(engine, kind);
  target.p50 = figures.responseMs.p50;
  target.p95 = figures.responseMs.p95;
  target.p99 = figures.responseMs.p99;
  target.perSecond = figures.okPerSecond;
  const cores = (figures.serverCores ?? 0) + (figures.databaseCores ?? 0);
  target.cpuMsPerRequest =
    figures.serverCores === null || figures.okPerSecond === 0 ? null : (1000 * cores) / figures.okPerSecond;
  target.note = [problem ? `invalid run: ${problem}` : null, note, noise ?? null].filter(Boolean).join('; ');
  target.verdict = !problem && target.targetMs !== null && target.p95 <= target.targetMs ? 'MEET' : 'MISS';
}

/** The cases table: one block per engine. */
export function renderCases(result: CasesResult): string {
  const { connections, seconds, warmup } = CASES_PLAN.load;
  const cell = (value: number | null, digits: number) => (value === null ? '—' : formatNumber(value, digits));
  const header = ['load', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s', 'CPU ms/req', 'target', 'result'];
  const body = result.rows.map((row) => [
    row.label,
    cell(row.p50, 1),
    cell(row.p95, 1),
    cell(row.p99, 1),
    cell(row.perSecond, 0),
    cell(row.cpuMsPerRequest, 1),
    row.targetMs === null ? '' : `p95 ≤ ${row.targetMs} ms`,
    row.verdict,
  ]);
  const widths = header.map((title, column) => Math.max([...title].length, ...body.map((cells) => [...cells[column]!].length)));
  const render = (cells: string[]) =>
    `  ${cells.map((text, column) => pad(text, widths[column]!, column > 0 && column < 7)).join('  ')}`.trimEnd();
  const out = [
    `11. case library at scale — POST /api/graphql as ${CASES_READER_EMAIL}; loads: autocannon, c=${connections}, ${seconds} s after ${warmup} s warm-up; ` +
      'p50/p95/p99 from every answer’s own time; CPU ms/req: server + its PostgreSQL backends',
  ];
  for (const summary of result.engines) {
    const data = summary.data;
    out.push('');
    out.push(
      data
        ? `${summary.title}: ${formatNumber(data.cases, 0)} generated cases in Riverside (the reader's count ${summary.total ?? '?'}: ` +
            `${formatNumber(data.readerOwn, 0)} their own, ${formatNumber(data.readerPlayed, 0)} played, ${formatNumber(data.readerFavorites, 0)} favourites; ` +
            `${formatNumber(data.published, 0)} published, ${formatNumber(data.shared, 0)} shared); filled in ${data.seconds.total.toFixed(1)} s ` +
            `(insert ${data.seconds.insert.toFixed(1)}, indexes ${data.seconds.index.toFixed(1)}, vacuum + analyse ${data.seconds.analyze.toFixed(1)}); ` +
            `start ${summary.startSeconds?.toFixed(1) ?? '?'} s; RSS after ${summary.rssAfterMb?.toFixed(0) ?? '?'} MB`
        : `${summary.title}: not filled`,
    );
    out.push(render(header));
    for (const [index, row] of result.rows.entries()) {
      if (row.engine !== summary.engine) continue;
      out.push(render(body[index]!));
      if (row.note) out.push(`    ↳ ${row.note}`);
    }
  }
  const count = (verdict: CasesVerdict) => result.rows.filter((row) => row.verdict === verdict).length;
  out.push('');
  out.push(
    `cases targets: ${count('MEET')} MEET, ${count('MISS')} MISS` +
      (count('ERROR') ? `, ${count('ERROR')} ERROR` : '') +
      (count('SKIP') ? `, ${count('SKIP')} not measured` : '') +
      (count('INFO') ? ` (and ${count('INFO')} without a target)` : ''),
  );
  return out.join('\n');
}
