/**
 * Section 6 of the benchmarks: organisation members at scale. On the embedded engine (100,000
 * users) and on PostgreSQL (1,000,000 users), one large organisation (the demo seed's Riverside EMS
 * Academy, 20,000 members) and many small ones, it measures
 *   - the org-scoped member list, pages spread across the organisation, as its admin;
 *   - the org-scoped member search (the list's `search`), as its admin;
 *   - user search scoped to the organisation (`/search/users?orgId=`), as its admin;
 *   - global user search (`/search/users`), as the provider;
 *   - 50-address bulk invitations into the organisation, end to end.
 */
import path from 'node:path';
import { watchCpu } from '../lib/cpu.js';
import { bearerHeaders, DEMO_ADMIN, DEMO_SUPER_ADMIN, getAny, getOk, postOk } from '../lib/http.js';
import {
  fillMembers,
  type FilledData,
  generatedUser,
  LARGE_ORG_NAME,
  openPgliteTarget,
  openPostgresTarget,
} from '../lib/members-data.js';
import { backendPids, createScratchDatabase, dropScratchDatabase } from '../lib/postgres.js';
import { formatNumber, pad } from '../lib/report.js';
import type { RunningServer } from '../lib/server.js';
import type { Engine, SuiteContext } from '../lib/suite.js';
import { median } from '../lib/stats.js';

export const MEMBERS_PLAN = {
  users: { embedded: 100_000, postgres: 1_000_000 },
  /** Members of the large organisation (1 in 100 of them removed, so archived). */
  orgMembers: 20_000,
  smallOrgSize: 20,
  /** A few admins at work at once; latencies under load include queueing behind each other. */
  load: { connections: 4, seconds: 10, warmup: 2 },
  /** Pages of the member list requested in turn, spread evenly from the first to the last. */
  listPages: 40,
  /** Bulk invitations: one unmeasured batch, then `batches` measured ones, one after another. */
  invite: { size: 50, batches: 7 },
  startTimeoutMs: 180_000,
} as const;

export const MEMBERS_TARGETS = {
  /** p95 on PostgreSQL of a page of the member list. */
  pageP95Ms: 40,
  /** p95 on PostgreSQL of every search: members, and users within the organisation or over all users. */
  searchP95Ms: 60,
  /** Median of a 50-address bulk invitation, request to answer. */
  inviteMedianMs: 1_000,
} as const;

type RowKind = 'list' | 'orgSearch' | 'orgUserSearch' | 'globalSearch' | 'invite';
export type MembersVerdict = 'MEET' | 'MISS' | 'info' | 'SKIP' | 'ERROR';

export type MembersRow = {
  id: `${Engine}.${RowKind}`;
  engine: Engine;
  label: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  perSecond: number | null;
  /** CPU the server and (on PostgreSQL) its database backends spent on one request. */
  cpuMsPerRequest: number | null;
  target: { measure: 'p95' | 'median'; ms: number } | null;
  verdict: MembersVerdict;
  note: string | null;
};

export type EngineSummary = {
  engine: Engine;
  title: string;
  plannedUsers: number;
  data: FilledData | null;
  firstStartSeconds: number | null;
  startSeconds: number | null;
  rssAfterMb: number | null;
  searchTerms: string[];
  /** Results each search term found, per search, as the probe before each load saw them. */
  hits: Partial<Record<RowKind, SearchHits>>;
  inviteBatchesMs: number[];
};

/** Each term with the number of users its search answered (null when the answer's shape is unknown). */
type SearchHits = { term: string; found: number | null }[];

export type MembersResult = { rows: MembersRow[]; engines: EngineSummary[] };

export type MembersOptions = {
  engines: readonly Engine[];
  users: Record<Engine, number>;
  orgMembers: number;
};

const ROW_KINDS: readonly RowKind[] = ['list', 'orgSearch', 'orgUserSearch', 'globalSearch', 'invite'];

const fmt = (value: number) => formatNumber(value, 0);

function rowLabel(kind: RowKind): string {
  const { connections } = MEMBERS_PLAN.load;
  switch (kind) {
    case 'list':
      return `GET …/groups/{org}/members?page=N, admin (${MEMBERS_PLAN.listPages} pages, c=${connections})`;
    case 'orgSearch':
      return `GET …/groups/{org}/members?search=T, admin (c=${connections})`;
    case 'orgUserSearch':
      return `GET …/search/users?term=T&orgId={org}, admin (c=${connections})`;
    case 'globalSearch':
      return `GET …/search/users?term=T, provider, all users (c=${connections})`;
    case 'invite':
      return `POST …/invitations/invite, ${MEMBERS_PLAN.invite.size} new addresses (median of ${MEMBERS_PLAN.invite.batches})`;
  }
}

function rowTarget(engine: Engine, kind: RowKind): MembersRow['target'] {
  if (kind === 'invite') return { measure: 'median', ms: MEMBERS_TARGETS.inviteMedianMs };
  if (engine !== 'postgres') return null;
  return { measure: 'p95', ms: kind === 'list' ? MEMBERS_TARGETS.pageP95Ms : MEMBERS_TARGETS.searchP95Ms };
}

/**
 * Search terms as an admin types them: parts of names and addresses of the generated users, some
 * found in the large organisation and everywhere, some found nowhere.
 */
export function searchTerms(orgMembers: number): string[] {
  // One member of the large organisation, by the part of the address before the @.
  const person = generatedUser(Math.max(1, Math.floor(orgMembers * 0.61) + 3)).email.split('@')[0]!;
  return ['hern', 'oliv', person, 'nguyen', '4711', 'nursing-school', 'zqx', 'przybylski'];
}

/** How many users a search answer holds, whatever its exact shape (an array, or an object with one). */
function resultCount(body: unknown): number | null {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.total === 'number') return record.total;
    for (const key of ['users', 'items', 'data']) {
      const value = record[key];
      if (Array.isArray(value)) return value.length;
    }
  }
  return null;
}

const isMissingRoute = ({ status, body }: { status: number; body: unknown }) =>
  status === 404 &&
  typeof (body as { message?: unknown } | null)?.message === 'string' &&
  /^Route /.test((body as { message: string }).message);

export async function membersSuite({
  ctx,
  tmpRoot,
  options,
}: {
  ctx: SuiteContext;
  tmpRoot: string;
  options: MembersOptions;
}): Promise<MembersResult> {
  const { engines } = options;
  const rows: MembersRow[] = engines.flatMap((engine) =>
    ROW_KINDS.map((kind) => ({
      id: `${engine}.${kind}` as const,
      engine,
      label: rowLabel(kind),
      p50: null,
      p95: null,
      p99: null,
      perSecond: null,
      cpuMsPerRequest: null,
      target: rowTarget(engine, kind),
      verdict: 'ERROR',
      note: null,
    })),
  );
  const row = (engine: Engine, kind: RowKind) => rows.find((candidate) => candidate.id === `${engine}.${kind}`)!;
  const fail = (engine: Engine, kinds: readonly RowKind[], verdict: 'ERROR' | 'SKIP', note: string) => {
    for (const kind of kinds) {
      const target = row(engine, kind);
      if (target.p95 === null && target.p50 === null) {
        target.verdict = verdict;
        target.note = note;
      }
    }
  };
  const attempt = async <T>(name: string, engine: Engine, kinds: readonly RowKind[], work: () => Promise<T>) => {
    try {
      return await work();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.recordError(name, message);
      console.error(`✗ ${name} failed: ${message}`);
      fail(engine, kinds, 'ERROR', `${name} failed: ${message.split('\n', 1)[0]}`);
      return undefined;
    }
  };

  const summaries: EngineSummary[] = [];
  for (const engine of engines) {
    const summary: EngineSummary = {
      engine,
      title: engine === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL',
      plannedUsers: options.users[engine],
      data: null,
      firstStartSeconds: null,
      startSeconds: null,
      rssAfterMb: null,
      searchTerms: searchTerms(options.orgMembers),
      hits: {},
      inviteBatchesMs: [],
    };
    summaries.push(summary);
    const dataDir = path.join(tmpRoot, `members-${engine}`);
    if (engine === 'embedded') {
      await attempt('members (embedded)', engine, ROW_KINDS, () =>
        onEngine({ ctx, engine, dataDir, options, summary, row, fail, attempt }),
      );
      continue;
    }
    const database = await attempt('members: PostgreSQL scratch database', engine, ROW_KINDS, createScratchDatabase);
    if (!database) continue;
    ctx.trackDatabase(database.name, true);
    summary.title = `PostgreSQL ${database.serverVersion}`;
    try {
      await attempt('members (PostgreSQL)', engine, ROW_KINDS, () =>
        onEngine({
          ctx,
          engine,
          dataDir,
          database: { url: database.url, pids: () => backendPids(database.name) },
          options,
          summary,
          row,
          fail,
          attempt,
        }),
      );
    } finally {
      await attempt('members: drop the PostgreSQL scratch database', engine, [], () => dropScratchDatabase(database.name));
      ctx.trackDatabase(database.name, false);
    }
  }
  return { rows, engines: summaries };
}

type EngineRun = {
  ctx: SuiteContext;
  engine: Engine;
  dataDir: string;
  database?: { url: string; pids: () => Promise<number[]> };
  options: MembersOptions;
  summary: EngineSummary;
  row: (engine: Engine, kind: RowKind) => MembersRow;
  fail: (engine: Engine, kinds: readonly RowKind[], verdict: 'ERROR' | 'SKIP', note: string) => void;
  attempt: <T>(name: string, engine: Engine, kinds: readonly RowKind[], work: () => Promise<T>) => Promise<T | undefined>;
};

/** Migrates and seeds, fills, starts the server on the filled database and runs every load. */
async function onEngine(run: EngineRun) {
  const { ctx, engine, dataDir, database, options, summary } = run;
  const startOptions = {
    dataDir,
    timeoutMs: MEMBERS_PLAN.startTimeoutMs,
    ...(database ? { databaseUrl: database.url } : {}),
  };
  ctx.progress(`members, ${summary.title}: first start (migrations + demo seed)`);
  const first = await ctx.timedStart({ ...startOptions, label: `members ${engine} first start` });
  summary.firstStartSeconds = first.server.readyMs / 1000;
  await first.server.stop();

  const users = options.users[engine];
  ctx.progress(`members, ${summary.title}: generating ${fmt(users)} users (${fmt(options.orgMembers)} in ${LARGE_ORG_NAME})`);
  const target = database ? await openPostgresTarget(database.url) : await openPgliteTarget(path.join(dataDir, 'pglite'));
  try {
    summary.data = await fillMembers(target, {
      users,
      orgMembers: options.orgMembers,
      smallOrgSize: MEMBERS_PLAN.smallOrgSize,
      spareSeats: (MEMBERS_PLAN.invite.batches + 1) * MEMBERS_PLAN.invite.size + 100,
    });
  } finally {
    await target.close();
  }
  const { seconds, orgId } = summary.data;
  ctx.progress(
    `  filled in ${seconds.total.toFixed(1)} s (insert ${seconds.insert.toFixed(1)}, indexes ${seconds.index.toFixed(1)}, vacuum + analyse ${seconds.analyze.toFixed(1)})`,
  );

  ctx.progress(`members, ${summary.title}: start on the filled database`);
  const { server } = await ctx.timedStart({ ...startOptions, label: `members ${engine} start` });
  try {
    summary.startSeconds = server.readyMs / 1000;
    await measureReads(run, server, orgId);
    await run.attempt(`members: bulk invitations (${engine})`, engine, ['invite'], () => measureInvites(run, server, orgId));
    summary.rssAfterMb = server.memory()?.rssMb ?? null;
  } finally {
    await server.stop();
  }
}

function setLoadRow(run: EngineRun, kind: RowKind, result: Awaited<ReturnType<SuiteContext['measureLoad']>>, note?: string) {
  const target = run.row(run.engine, kind);
  const { figures, problem, noise } = result;
  target.p50 = figures.responseMs.p50;
  target.p95 = figures.responseMs.p95;
  target.p99 = figures.responseMs.p99;
  target.perSecond = figures.okPerSecond;
  const cores = (figures.serverCores ?? 0) + (figures.databaseCores ?? 0);
  target.cpuMsPerRequest =
    figures.serverCores === null || figures.okPerSecond === 0 ? null : (1000 * cores) / figures.okPerSecond;
  target.note = [problem ? `invalid run: ${problem}` : null, note ?? null, noise ?? null].filter(Boolean).join('; ') || null;
  if (!target.target) target.verdict = 'info';
  else if (problem) target.verdict = 'MISS';
  else target.verdict = target.p95 <= target.target.ms ? 'MEET' : 'MISS';
}

/** Asks each search once (each must answer 200) and counts what it found. */
async function probeSearches(
  server: RunningServer,
  terms: readonly string[],
  paths: readonly string[],
  headers: Record<string, string>,
) {
  const hits: SearchHits = [];
  for (const [index, term] of terms.entries()) {
    hits.push({ term, found: resultCount(await getOk(`${server.baseUrl}${paths[index]}`, headers)) });
  }
  return hits;
}

const hitsNote = (hits: SearchHits) => `found: ${hits.map(({ term, found }) => `${term} ${found ?? '?'}`).join(', ')}`;

async function measureReads(run: EngineRun, server: RunningServer, orgId: string) {
  const { ctx, engine, summary } = run;
  const api = `${server.baseUrl}/api/users`;
  const admin = await bearerHeaders(server.baseUrl, DEMO_ADMIN);
  const provider = await bearerHeaders(server.baseUrl, DEMO_SUPER_ADMIN);
  const terms = summary.searchTerms;
  const common = {
    connections: MEMBERS_PLAN.load.connections,
    durationSeconds: MEMBERS_PLAN.load.seconds,
    warmupSeconds: MEMBERS_PLAN.load.warmup,
    ...(run.database ? { databasePids: run.database.pids } : {}),
  };
  const membersPath = `/api/users/extension/groups/${encodeURIComponent(orgId)}/members`;
  const key = (kind: RowKind) => `members.${engine}.${kind}`;

  await run.attempt(`members: list (${engine})`, engine, ['list'], async () => {
    const first = (await getOk(`${server.baseUrl}${membersPath}?page=0`, admin)) as { total: number; pageSize: number };
    const lastPage = Math.max(0, Math.ceil(first.total / first.pageSize) - 1);
    const pages = [
      ...new Set(
        Array.from({ length: MEMBERS_PLAN.listPages }, (_, k) => Math.round((k * lastPage) / (MEMBERS_PLAN.listPages - 1))),
      ),
    ];
    await getOk(`${server.baseUrl}${membersPath}?page=${lastPage}`, admin);
    ctx.progress(`members, ${summary.title}: member list, ${pages.length} pages of ${first.total} users`);
    const result = await ctx.measureLoad(key('list'), server, {
      ...common,
      url: `${server.baseUrl}${membersPath}`,
      paths: pages.map((page) => `${membersPath}?page=${page}`),
      headers: admin,
    });
    setLoadRow(run, 'list', result, `${fmt(first.total)} users listed, pages ${pages[0]}–${pages.at(-1)}`);
  });

  await run.attempt(`members: org search (${engine})`, engine, ['orgSearch'], async () => {
    const paths = terms.map((term) => `${membersPath}?search=${encodeURIComponent(term)}`);
    const hits = await probeSearches(server, terms, paths, admin);
    summary.hits.orgSearch = hits;
    ctx.progress(`members, ${summary.title}: member search, ${terms.length} terms`);
    const result = await ctx.measureLoad(key('orgSearch'), server, {
      ...common,
      url: `${server.baseUrl}${membersPath}`,
      paths,
      headers: admin,
    });
    setLoadRow(run, 'orgSearch', result, hitsNote(hits));
  });

  // The user search route is new: a build without it reports these lines as missing, not as errors.
  const searchKinds: RowKind[] = ['orgUserSearch', 'globalSearch'];
  const probe = await run.attempt(`members: user search probe (${engine})`, engine, searchKinds, () =>
    getAny(`${api}/search/users?term=${encodeURIComponent(terms[0]!)}&orgId=${encodeURIComponent(orgId)}`, admin),
  );
  if (!probe) return;
  if (isMissingRoute(probe)) {
    run.fail(engine, searchKinds, 'SKIP', 'missing: GET /api/users/search/users does not exist in this build');
    return;
  }
  const searches: { kind: RowKind; headers: Record<string, string>; query: (term: string) => string }[] = [
    {
      kind: 'orgUserSearch',
      headers: admin,
      query: (term) => `term=${encodeURIComponent(term)}&orgId=${encodeURIComponent(orgId)}`,
    },
    { kind: 'globalSearch', headers: provider, query: (term) => `term=${encodeURIComponent(term)}` },
  ];
  for (const search of searches) {
    await run.attempt(`members: ${search.kind} (${engine})`, engine, [search.kind], async () => {
      const paths = terms.map((term) => `/api/users/search/users?${search.query(term)}`);
      const hits = await probeSearches(server, terms, paths, search.headers);
      summary.hits[search.kind] = hits;
      ctx.progress(
        `members, ${summary.title}: ${search.kind === 'globalSearch' ? 'global' : 'org-scoped'} user search, ${terms.length} terms`,
      );
      const result = await ctx.measureLoad(key(search.kind), server, {
        ...common,
        url: `${server.baseUrl}/api/users/search/users`,
        paths,
        headers: search.headers,
      });
      setLoadRow(run, search.kind, result, hitsNote(hits));
    });
  }
}

/** Bulk invitations of new addresses into the large organisation, one batch after another. */
async function measureInvites(run: EngineRun, server: RunningServer, orgId: string) {
  const { ctx, engine, summary } = run;
  const { size, batches } = MEMBERS_PLAN.invite;
  const admin = await bearerHeaders(server.baseUrl, DEMO_ADMIN);
  const url = `${server.baseUrl}/api/users/invitations/invite`;
  const invite = async (batch: number) => {
    const users = Array.from({ length: size }, (_, n) => ({
      email: `invitee${batch}-${n + 1}@bench-invite.test`,
      role: 'STUDENT',
    }));
    const started = performance.now();
    const answer = (await postOk(url, admin, { users, throughSubscription: false, org: orgId, groupMembership: [] })) as {
      outcome?: string;
    }[];
    const ms = performance.now() - started;
    const sent = answer.filter((item) => item.outcome === 'sent').length;
    if (sent !== size)
      throw new Error(`batch ${batch}: ${sent} of ${size} invitations sent (${JSON.stringify(answer.slice(0, 2))}…)`);
    return ms;
  };
  ctx.progress(`members, ${summary.title}: ${batches} bulk invitations of ${size} addresses (after one unmeasured)`);
  await ctx.quiet(`members ${engine} invitations`, server.pid);
  await invite(0);
  const pids = run.database ? await run.database.pids() : [];
  const stopWatch = watchCpu(server.pid, pids);
  for (let batch = 1; batch <= batches; batch += 1) summary.inviteBatchesMs.push(await invite(batch));
  const cpu = stopWatch();
  const target = run.row(engine, 'invite');
  target.p50 = median(summary.inviteBatchesMs);
  const noise = ctx.noise(`members.${engine}.invite`, cpu.otherCores);
  target.note =
    [`each: ${summary.inviteBatchesMs.map((ms) => ms.toFixed(0)).join(', ')} ms (mails go to the outbox after the answer)`, noise]
      .filter(Boolean)
      .join('; ') || null;
  target.verdict = target.p50 <= MEMBERS_TARGETS.inviteMedianMs ? 'MEET' : 'MISS';
}

/** The members table: one block per engine, latencies, throughput, targets and MEET/MISS. */
export function renderMembers(result: MembersResult): string {
  const { connections, seconds, warmup } = MEMBERS_PLAN.load;
  const cell = (value: number | null, digits: number) => (value === null ? '—' : formatNumber(value, digits));
  const header = ['load', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s', 'CPU ms/req', 'target', 'result'];
  const body = result.rows.map((row) => [
    row.label,
    cell(row.p50, row.id.endsWith('invite') ? 0 : 1),
    cell(row.p95, 1),
    cell(row.p99, 1),
    cell(row.perSecond, 0),
    cell(row.cpuMsPerRequest, 1),
    row.target ? `${row.target.measure} ≤ ${formatNumber(row.target.ms, 0)} ms` : '',
    row.verdict,
  ]);
  const widths = header.map((title, column) => Math.max([...title].length, ...body.map((cells) => [...cells[column]!].length)));
  const render = (cells: string[]) =>
    `  ${cells.map((text, column) => pad(text, widths[column]!, column > 0 && column < 7)).join('  ')}`.trimEnd();
  const out = [
    `6. members at scale — loads: autocannon, c=${connections}, ${seconds} s after ${warmup} s warm-up; p50/p95/p99 from every answer's own time; ` +
      'CPU ms/req: server + its PostgreSQL backends (parallel query workers count as other processes)',
  ];
  for (const summary of result.engines) {
    const data = summary.data;
    out.push('');
    out.push(
      data
        ? `${summary.title}: ${fmt(data.users)} users; ${LARGE_ORG_NAME} ${fmt(data.orgActiveMembers)} active members; ` +
            `${fmt(data.smallOrgs)} organisations of ${MEMBERS_PLAN.smallOrgSize}; filled in ${data.seconds.total.toFixed(1)} s ` +
            `(insert ${data.seconds.insert.toFixed(1)}, indexes ${data.seconds.index.toFixed(1)}, vacuum + analyse ${data.seconds.analyze.toFixed(1)}); ` +
            `start ${summary.startSeconds?.toFixed(1) ?? '?'} s; RSS after ${summary.rssAfterMb?.toFixed(0) ?? '?'} MB`
        : `${summary.title}: ${fmt(summary.plannedUsers)} users planned, not filled`,
    );
    out.push(render(header));
    for (const [index, row] of result.rows.entries()) {
      if (row.engine !== summary.engine) continue;
      out.push(render(body[index]!));
      if (row.note) out.push(`  ${' '.repeat(2)}↳ ${row.note}`);
    }
  }
  const count = (verdict: MembersVerdict) => result.rows.filter((row) => row.verdict === verdict).length;
  out.push('');
  out.push(
    `members targets: ${count('MEET')} MEET, ${count('MISS')} MISS` +
      (count('ERROR') ? `, ${count('ERROR')} ERROR` : '') +
      (count('SKIP') ? `, ${count('SKIP')} missing` : ''),
  );
  return out.join('\n');
}
