import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PGLITE_EXTENSIONS } from '../../apps/server/src/db/extensions.js';

/**
 * Bulk users and memberships for the member-listing and search benchmarks, written with SQL
 * (`insert … select … from generate_series`) straight into the schema the server's migrations
 * created: no password hashing, since these accounts never sign in. The server must be stopped
 * while a database is filled.
 */

/** The few calls a fill needs, on the embedded engine and on PostgreSQL alike. */
export type SqlTarget = {
  exec: (sql: string) => Promise<void>;
  rows: <T>(sql: string, params?: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
};

/** The server's embedded database in `dir` (DATA_DIR/pglite), opened as the server opens it. */
export async function openPgliteTarget(dir: string): Promise<SqlTarget> {
  const client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  return {
    exec: async (sql) => {
      await client.exec(sql);
    },
    rows: async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows,
    close: () => client.close(),
  };
}

export async function openPostgresTarget(url: string): Promise<SqlTarget> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // This session only: larger index builds in memory, and no waiting on the WAL flush per statement.
  await client.query("set maintenance_work_mem = '256MB'");
  await client.query('set synchronous_commit = off');
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    rows: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    close: () => client.end(),
  };
}

/** The organisation of the demo seed that receives the large membership (its admins read it). */
export const LARGE_ORG_NAME = 'Riverside EMS Academy';

const GIVEN_NAMES = [
  'Olivia Liam Amelia Noah Isla Oliver Ava Elijah Mia James Sofia Lucas Grace Mateo Chloe Henry Aisha',
  'Leo Zara Arjun Freya Ethan Hana Samuel Nora Daniel Priya Jack Layla Omar Ella Tomas Ruby Kenji Ivy',
  'Felix Maya Hugo Lena Rafael',
]
  .join(' ')
  .split(' ');

const FAMILY_NAMES = [
  'Nguyen Smith Hernandez Kowalski Okafor Murphy Rossi Tanaka Schmidt Dubois Garcia Johnson Fernandez',
  'Novak Mensah Kelly Bianchi Sato Weber Laurent Patel Brown Lopez Horvat Adeyemi Walsh Romano Suzuki',
  'Fischer Moreau Khan Wilson Martinez Dvorak Boateng Byrne Greco Takahashi Wagner Girard Singh Taylor',
  'Gonzalez Jovanovic Owusu Ryan Conti Watanabe Becker Lefevre Chen Anderson Ramirez Petrovic Eze Doyle',
  'Marino Ito Hoffmann Fontaine',
]
  .join(' ')
  .split(' ');

const DOMAINS = ['mail.test', 'ems-college.test', 'nursing-school.test', 'medic-unit.test', 'example.test'] as const;

/** User `i` (1-based) of the generated data, as the SQL below writes it. */
export function generatedUser(i: number): { givenName: string; familyName: string; email: string } {
  const givenName = GIVEN_NAMES[i % GIVEN_NAMES.length]!;
  const familyName = FAMILY_NAMES[Math.floor(i / GIVEN_NAMES.length) % FAMILY_NAMES.length]!;
  const domain = DOMAINS[Math.floor(i / (GIVEN_NAMES.length * FAMILY_NAMES.length)) % DOMAINS.length]!;
  return { givenName, familyName, email: `${givenName}.${familyName}${i}@${domain}`.toLowerCase() };
}

export type MembersDataPlan = {
  /** Generated users in all. */
  users: number;
  /** How many of them join the large organisation (1 in 100 of those as removed, archived members). */
  orgMembers: number;
  /** The rest join organisations of this size. */
  smallOrgSize: number;
  /** Seats the large organisation gets beyond its members (room for the invitation batches). */
  spareSeats: number;
};

export type FilledData = {
  orgId: string;
  users: number;
  /** Active (not removed) members of the large organisation, the demo seed's included. */
  orgActiveMembers: number;
  smallOrgs: number;
  seconds: { insert: number; index: number; analyze: number; total: number };
  /** The secondary indexes dropped for the load and built again after it. */
  rebuiltIndexes: string[];
};

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const sqlArray = (values: readonly string[]) => `array[${values.map(sqlText).join(', ')}]`;

function assertCount(name: string, value: number, min: number) {
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}, not ${value}`);
}

/** Generated user `i`'s id: 24 hex characters like the server's own ids. */
const userId = (i: string) => `substr(md5('bench-user-' || ${i}), 1, 24)`;
const orgId = (k: string) => `substr(md5('bench-org-' || ${k}), 1, 24)`;

/**
 * Fills a migrated, demo-seeded database: `plan.users` users, the first `plan.orgMembers` of them
 * members of the large organisation, the others in organisations of `plan.smallOrgSize`. Secondary
 * indexes of the three tables are dropped first and built again afterwards (far quicker than
 * updating trigram indexes row by row), then the tables are vacuumed and analysed, as autovacuum
 * would eventually do (it is off on the embedded engine).
 */
export async function fillMembers(target: SqlTarget, plan: MembersDataPlan): Promise<FilledData> {
  assertCount('users', plan.users, 1);
  assertCount('orgMembers', plan.orgMembers, 1);
  assertCount('smallOrgSize', plan.smallOrgSize, 1);
  assertCount('spareSeats', plan.spareSeats, 0);
  if (plan.orgMembers > plan.users) throw new Error(`orgMembers (${plan.orgMembers}) exceeds users (${plan.users})`);
  const started = performance.now();
  const [org] = await target.rows<{ id: string }>('select id from "group" where name = $1 and parent_id is null', [
    LARGE_ORG_NAME,
  ]);
  if (!org) throw new Error(`the demo seed has no organisation named ${LARGE_ORG_NAME}`);
  const [already] = await target.rows<{ n: number }>(`select count(*)::int as n from "user" where id = ${userId('1')}`);
  if ((already?.n ?? 0) > 0) throw new Error('this database already holds generated users');

  const indexes = await target.rows<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and t.relname in ('user', 'group', 'group_member')
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
      order by i.relname`,
  );
  for (const index of indexes) await target.exec(`drop index "public"."${index.name}"`);

  const M = plan.orgMembers;
  const S = plan.smallOrgSize;
  const smallOrgs = Math.ceil((plan.users - M) / S);
  const G = GIVEN_NAMES.length;
  const F = FAMILY_NAMES.length;
  if (smallOrgs > 0) {
    await target.exec(
      `insert into "group" (id, name, seats, product_type)
       select ${orgId('k')}, 'Training Centre ' || lpad(k::text, 6, '0'), ${S}, (array['EMS', 'NURSING', 'MILITARY'])[1 + k % 3]
         from generate_series(1, ${smallOrgs}) as k`,
    );
  }
  await target.exec(
    `insert into "user" (id, name, email, email_verified, given_name, family_name, role, product_type, created_at, updated_at)
     select ${userId('i')}, given || ' ' || family, lower(given || '.' || family || i || '@' || domain), true, given, family,
            case when i % 40 = 7 then 'USER' else 'STUDENT' end, 'EMS', now() - (i % 730) * interval '1 day', now()
       from (select i,
                    (${sqlArray(GIVEN_NAMES)})[1 + i % ${G}] as given,
                    (${sqlArray(FAMILY_NAMES)})[1 + (i / ${G}) % ${F}] as family,
                    (${sqlArray(DOMAINS)})[1 + (i / ${G * F}) % ${DOMAINS.length}] as domain
               from generate_series(1, ${plan.users}) as i) as generated`,
  );
  await target.exec(
    `insert into group_member (group_id, user_id, subscribed, removed_at, created_at)
     select case when i <= ${M} then ${sqlText(org.id)} else ${orgId(`((i - ${M} - 1) / ${S} + 1)`)} end,
            ${userId('i')}, i % 10 = 0, case when i <= ${M} and i % 100 = 0 then now() else null end, now() - (i % 365) * interval '1 day'
       from generate_series(1, ${plan.users}) as i`,
  );
  const [counted] = await target.rows<{ n: number }>(
    'select count(*)::int as n from group_member where group_id = $1 and removed_at is null',
    [org.id],
  );
  const orgActiveMembers = counted?.n ?? 0;
  await target.rows('update "group" set seats = $1 where id = $2', [orgActiveMembers + plan.spareSeats, org.id]);
  const inserted = performance.now();

  for (const index of indexes) await target.exec(index.definition);
  const indexed = performance.now();
  for (const table of ['user', 'group', 'group_member']) await target.exec(`vacuum analyze "${table}"`);
  const analysed = performance.now();

  return {
    orgId: org.id,
    users: plan.users,
    orgActiveMembers,
    smallOrgs,
    seconds: {
      insert: (inserted - started) / 1000,
      index: (indexed - inserted) / 1000,
      analyze: (analysed - indexed) / 1000,
      total: (analysed - started) / 1000,
    },
    rebuiltIndexes: indexes.map((index) => index.name),
  };
}
