import { PUBLISHED_PSEUDO_GROUPS } from '../../apps/server/src/modules/cases/case-access.js';
import { LARGE_ORG_NAME, type SqlTarget } from '../lib/members-data.js';

/**
 * A large case library for the case-list benchmark, written with SQL (`insert … select … from
 * generate_series`) straight into a migrated, demo-seeded database while its server is stopped.
 *
 * The generated cases are variations of the demo's own Riverside cases (built by the seed's case
 * builders): each takes the document of one of them, the patient of a second and the start and end
 * places of two more, a name of its own, an author among Riverside's instructors and admins, and
 * the access lists `buildCaseAccess` gives a case of the organisation (the organisation reads and
 * runs it, the author edits and shares it), published ones with the published pseudo groups and a
 * few shared with Northgate (a read grant and a `case_share` row, as sharing writes them).
 */

/** The organisation that receives the library (its instructor is the one the benchmark reads as). */
export const CASES_ORG_NAME = LARGE_ORG_NAME;
export const CASES_SHARE_ORG_NAME = 'Northgate Nursing School';
/** The demo's instructor of Riverside: the author of one case in `ownEvery`, with plays and favourites. */
export const CASES_READER_EMAIL = 'instructor@demo.test';

export type CasesDataPlan = {
  /** Generated cases in all, every one in the organisation. */
  cases: number;
  /** One case in this many is the reader's own (the rest cycle through the other authors). */
  ownEvery: number;
  /** One in this many is published (read and run by every organisation's admins and instructors). */
  publishedEvery: number;
  /** One in this many is shared with Northgate. */
  sharedEvery: number;
  /** One in this many was played (and opened) by the reader; as many again only opened. */
  playedEvery: number;
  /** One in this many is a favourite of the reader. */
  favoriteEvery: number;
  /** One in this many needs an effect-chain update; another one in as many counts errors. */
  attentionEvery: number;
};

export const DEFAULT_CASES_PLAN: Omit<CasesDataPlan, 'cases'> = {
  ownEvery: 8,
  publishedEvery: 10,
  sharedEvery: 500,
  playedEvery: 50,
  favoriteEvery: 97,
  attentionEvery: 250,
};

export type FilledCases = {
  orgId: string;
  readerId: string;
  cases: number;
  readerOwn: number;
  readerPlayed: number;
  readerFavorites: number;
  shared: number;
  published: number;
  seconds: { insert: number; index: number; analyze: number; total: number };
  rebuiltIndexes: string[];
};

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

function assertCount(name: string, value: number, min: number) {
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}, not ${value}`);
}

/** Generated case `i`'s id: 24 hex characters like the server's own ids. */
export const generatedCaseId = (i: string) => `substr(md5('bench-case-' || ${i}), 1, 24)`;

const CASE_TABLES = ['case_configuration', 'case_play', 'case_favorite', 'case_share'] as const;

/**
 * Fills the organisation's library with `plan.cases` cases. Secondary indexes of the case tables
 * are dropped first and built again from their own definitions afterwards (far quicker than
 * updating GIN and trigram indexes row by row), then the tables are vacuumed and analysed, as
 * autovacuum would eventually do (it is off on the embedded engine).
 */
export async function fillCases(target: SqlTarget, plan: CasesDataPlan): Promise<FilledCases> {
  assertCount('cases', plan.cases, 1);
  for (const key of ['ownEvery', 'publishedEvery', 'sharedEvery', 'playedEvery', 'favoriteEvery', 'attentionEvery'] as const) {
    assertCount(key, plan[key], 2);
  }
  const started = performance.now();
  const org = await one<{ id: string }>(target, 'select id from "group" where name = $1 and parent_id is null', [CASES_ORG_NAME]);
  const shareOrg = await one<{ id: string }>(target, 'select id from "group" where name = $1 and parent_id is null', [
    CASES_SHARE_ORG_NAME,
  ]);
  const reader = await one<{ id: string }>(target, 'select id from "user" where email = $1', [CASES_READER_EMAIL]);
  const [already] = await target.rows<{ n: number }>(
    `select count(*)::int as n from case_configuration where id = ${generatedCaseId('1')}`,
  );
  if ((already?.n ?? 0) > 0) throw new Error('this database already holds generated cases');

  // The demo's Riverside cases (with a patient and both places) lend documents, patients and places.
  await target.exec(
    `create temp table bench_case_template as
       select (row_number() over (order by id) - 1)::int as k, document, name, document->>'tags' as tags,
              document->'_avatar' as avatar, avatar_name,
              document->'_startLocation' as start_location, start_location_name,
              document->'_endLocation' as end_location, end_location_name
         from case_configuration
        where owner_org_id = ${sqlText(org.id)} and not is_template
          and avatar_name is not null and start_location_name is not null and end_location_name is not null`,
  );
  // The authors besides the reader: Riverside's instructors and admins.
  await target.exec(
    `create temp table bench_case_author as
       select (row_number() over (order by u.id) - 1)::int as k, u.id
         from group_member m join "user" u on u.id = m.user_id
        where m.group_id = ${sqlText(org.id)} and m.removed_at is null and u.role in ('USER', 'ADMIN')
          and u.id <> ${sqlText(reader.id)}`,
  );
  const [templates] = await target.rows<{ n: number }>('select count(*)::int as n from bench_case_template');
  const [authors] = await target.rows<{ n: number }>('select count(*)::int as n from bench_case_author');
  const T = templates?.n ?? 0;
  const A = authors?.n ?? 0;
  if (T < 4) throw new Error(`the demo seed has ${T} Riverside cases with a patient and places; 4 at least are needed`);
  if (A < 1) throw new Error('the demo seed has no other instructor or admin in Riverside');

  const indexes = await target.rows<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and t.relname in (${CASE_TABLES.map(sqlText).join(', ')})
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
      order by i.relname`,
  );
  for (const index of indexes) await target.exec(`drop index "public"."${index.name}"`);

  const orgLit = sqlText(org.id);
  const shareLit = sqlText(shareOrg.id);
  const published = `array[${PUBLISHED_PSEUDO_GROUPS.map(sqlText).join(', ')}]::text[]`;
  const list = (groups: string, users: string) =>
    `jsonb_build_object('groups', to_jsonb(${groups}), 'users', to_jsonb(${users}), 'roles', '[]'::jsonb, 'productType', '[]'::jsonb)`;
  await target.exec(
    `insert into case_configuration (id, name, document, access, owner_id, owner_org_id, readers, avatar_name, start_location_name,
                                     end_location_name, origin, is_template, published, applab, needs_ec_update, ignore_ec_update,
                                     update_status, errors_count, warnings_count, searchable_text, created_at, updated_at)
     select g.id, g.name,
            t.document || jsonb_build_object(
              'id', g.id, 'name', g.name, 'access', g.access, '_avatar', a.avatar, '_startLocation', s.start_location,
              '_endLocation', e.end_location, 'isTemplate', false, 'published', g.is_published, 'applab', false,
              'needsEcUpdate', g.needs_update, 'ignoreEcUpdate', false, 'updateStatus', g.update_status,
              'errorsCount', g.errors, 'warningsCount', g.warnings, 'outdatedMedications', '[]'::jsonb, 'outdatedEcNodes', '[]'::jsonb,
              'shares', case when g.is_shared
                then jsonb_build_array(jsonb_build_object('shareType', 'group', 'from', g.owner, 'to', ${shareLit}))
                else '[]'::jsonb end,
              'timed_access', null, 'searchableText', '', 'createdAt', to_jsonb(g.created_at)),
            g.access, g.owner, ${orgLit}, g.read_groups, a.avatar_name, s.start_location_name, e.end_location_name, null, false,
            g.is_published, false, g.needs_update, false, g.update_status, g.errors, g.warnings,
            lower(concat_ws(' ', g.name, nullif(t.tags, ''), a.avatar_name, s.start_location_name, e.end_location_name)),
            g.created_at, g.created_at
       from (select i, id, name, owner, is_published, is_shared, needs_update, errors, warnings, update_status, created_at, read_groups,
                    jsonb_build_object('owner', owner, 'ownerOrg', ${orgLit},
                      'read', ${list('read_groups', "'{}'::text[]")},
                      'write', ${list("'{}'::text[]", 'array[owner]')},
                      'run', ${list('run_groups', "'{}'::text[]")},
                      'share', ${list("'{}'::text[]", 'array[owner]')}) as access
               from (select i, id, name, owner, is_published, is_shared, needs_update, errors, warnings, update_status, created_at,
                            run_groups, run_groups || case when is_shared then array[${shareLit}] else '{}'::text[] end as read_groups
                       from (select i, ${generatedCaseId('i')} as id,
                                    t.name || ' ' || lpad(i::text, 6, '0') as name,
                                    case when i % ${plan.ownEvery} = 0 then ${sqlText(reader.id)} else au.id end as owner,
                                    i % ${plan.publishedEvery} = 3 as is_published,
                                    i % ${plan.sharedEvery} = 17 as is_shared,
                                    i % ${plan.attentionEvery} = 5 as needs_update,
                                    case when i % ${plan.attentionEvery} = 9 then 1 + i % 3 else 0 end as errors,
                                    case when i % 7 = 2 then 1 else 0 end as warnings,
                                    case when i % ${plan.attentionEvery * 2} = 11 then 'UPDATED' end as update_status,
                                    now() - (i % 1095) * interval '1 day' - (i % 1440) * interval '1 minute' as created_at,
                                    array[${orgLit}] || case when i % ${plan.publishedEvery} = 3 then ${published} else '{}'::text[] end
                                      as run_groups
                               from generate_series(1, ${plan.cases}) as i
                               join bench_case_template t on t.k = i % ${T}
                               join bench_case_author au on au.k = (i / ${plan.ownEvery}) % ${A}) as base) as grouped) as g
       join bench_case_template t on t.k = g.i % ${T}
       join bench_case_template a on a.k = (g.i * 7 + g.i / ${T}) % ${T}
       join bench_case_template s on s.k = (g.i * 13 + 1) % ${T}
       join bench_case_template e on e.k = (g.i * 29 + 2) % ${T}`,
  );
  await target.exec(
    `insert into case_share (id, case_id, share_type, from_id, to_id, created_at)
     select substr(md5('bench-share-' || i), 1, 24), ${generatedCaseId('i')}, 'group', c.owner_id, ${shareLit}, c.created_at
       from generate_series(1, ${plan.cases}) as i join case_configuration c on c.id = ${generatedCaseId('i')}
      where i % ${plan.sharedEvery} = 17`,
  );
  // The reader played one case in playedEvery and opened as many more without playing them; other
  // authors played some of their own.
  await target.exec(
    `insert into case_play (case_id, user_id, plays, last_played, last_accessed)
     select ${generatedCaseId('i')}, ${sqlText(reader.id)}, case when i % ${plan.playedEvery} = 1 then 1 + i % 5 else 0 end,
            case when i % ${plan.playedEvery} = 1 then now() - (i % 400) * interval '1 hour' end,
            now() - (i % 300) * interval '1 hour' + interval '5 minutes'
       from generate_series(1, ${plan.cases}) as i
      where i % ${plan.playedEvery} in (1, 2)
     union all
     select c.id, c.owner_id, 1, c.created_at + interval '1 day', c.created_at + interval '1 day'
       from generate_series(1, ${plan.cases}) as i join case_configuration c on c.id = ${generatedCaseId('i')}
      where i % 20 = 4 and c.owner_id <> ${sqlText(reader.id)}`,
  );
  await target.exec(
    `insert into case_favorite (case_id, user_id, created_at)
     select ${generatedCaseId('i')}, ${sqlText(reader.id)}, now() - (i % 200) * interval '1 hour'
       from generate_series(1, ${plan.cases}) as i where i % ${plan.favoriteEvery} = 0`,
  );
  await target.exec('drop table bench_case_template');
  await target.exec('drop table bench_case_author');
  const inserted = performance.now();

  for (const index of indexes) await target.exec(index.definition);
  const indexed = performance.now();
  for (const table of CASE_TABLES) await target.exec(`vacuum analyze "${table}"`);
  const analysed = performance.now();

  const counts = await one<{ own: number; played: number; favorites: number; shared: number; published: number }>(
    target,
    `select (select count(*)::int from case_configuration where owner_id = $1) as own,
            (select count(*)::int from case_play where user_id = $1 and last_played is not null) as played,
            (select count(*)::int from case_favorite where user_id = $1) as favorites,
            (select count(*)::int from case_share where to_id = $3) as shared,
            (select count(*)::int from case_configuration where published and owner_org_id = $2) as published`,
    [reader.id, org.id, shareOrg.id],
  );
  return {
    orgId: org.id,
    readerId: reader.id,
    cases: plan.cases,
    readerOwn: counts.own,
    readerPlayed: counts.played,
    readerFavorites: counts.favorites,
    shared: counts.shared,
    published: counts.published,
    seconds: {
      insert: (inserted - started) / 1000,
      index: (indexed - inserted) / 1000,
      analyze: (analysed - indexed) / 1000,
      total: (analysed - started) / 1000,
    },
    rebuiltIndexes: indexes.map((index) => index.name),
  };
}

async function one<T>(target: SqlTarget, sql: string, params: unknown[]): Promise<T> {
  const [row] = await target.rows<T>(sql, params);
  if (!row) throw new Error(`no row for ${sql.slice(0, 80)} (${params.join(', ')})`);
  return row;
}
