import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, type DatabaseHandle, openPglite, openPostgres } from '../src/db/client.js';
import { DEMO_PASSWORD } from '../src/seed/demo.js';
import { buildTestApp } from './build-app.js';
import { insertGroup, signInNewMember } from './fixtures.js';

// Durability: the server killed with SIGKILL while bulk invitations and profile saves are in flight
// keeps every write it acknowledged and none by halves, on restart on the same data: on the embedded
// database, and on PostgreSQL when TEST_DATABASE_URL names a server.

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

type Server = { child: ChildProcess; origin: string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

/** Runs the real entry point (TypeScript sources through tsx) and resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SEED: 'demo', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const origin = await vi.waitFor(
    () => {
      if (hasExited) throw new Error(`the server exited before it was ready:\n${output}`);
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (!listening || !output.includes('PatientSim is ready')) throw new Error('not ready yet');
      return listening;
    },
    { timeout: 180_000, interval: 50 },
  );
  return { child, origin, exited };
}

/** Rows of a raw query: both engines answer `execute` with `{ rows }`. */
async function selectRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

type Session = { userId: string; bearer: string; org: string | null };
type Answer = { status: number; headers: Headers; body: string };

/**
 * One request, answered: a 503 `SERVER_BUSY` (the server refused it unread, so it did nothing) is
 * sent again after its Retry-After, as a client does. Null once the server is gone.
 */
async function send(url: string, init: RequestInit): Promise<Answer | null> {
  for (;;) {
    const response = await fetch(url, init).catch(() => null);
    const body = await response?.text().catch(() => null);
    if (!response || body === null || body === undefined) return null;
    const isShed = response.status === 503 && (JSON.parse(body) as { code?: string }).code === 'SERVER_BUSY';
    if (!isShed) return { status: response.status, headers: response.headers, body };
    await delay(Number(response.headers.get('retry-after')) * 1000);
  }
}

async function signIn(origin: string, email: string): Promise<Session> {
  const signedIn = await send(`${origin}/api/users/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(signedIn?.status).toBe(200);
  const { user } = JSON.parse(signedIn!.body) as { user: { id: string } };
  const cookie = signedIn!.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
  const token = await send(`${origin}/api/users/auth/token`, { method: 'POST', headers: { cookie } });
  expect(token?.status).toBe(200);
  const { idToken, idTokenPayload } = JSON.parse(token!.body) as { idToken: string; idTokenPayload: { org: string | null } };
  return { userId: user.id, bearer: `Bearer ${idToken}`, org: idTokenPayload.org };
}

const INVITE_SIZE = 50;
const inviteEmail = (batch: number, index: number) => `durable-${batch}-${index}@example.test`;

/** What the clients saw before the kill: the writes acknowledged, and those sent and never answered. */
type Seen = {
  /** Bulk invitations answered 200, and those sent but never answered. */
  invitations: { acknowledged: Set<number>; unanswered: Set<number> };
  /** Per saving user: the number of the last save answered 200, and of the one in flight (if any). */
  saves: Map<string, { acknowledged: number; unanswered: number | null }>;
  /** Answers other than 200 and load sheds: each one fails the test. */
  unexpected: string[];
};

/** One write: true once answered 200; false when the server is gone or answered otherwise (noted in `unexpected`). */
async function sendWrite(url: string, init: RequestInit, unexpected: string[]): Promise<boolean> {
  const answer = await send(url, init);
  if (answer && answer.status !== 200) unexpected.push(`${init.method} ${url}: ${answer.status} ${answer.body.slice(0, 200)}`);
  return answer?.status === 200;
}

/**
 * Keeps two bulk invitations of 50 addresses and one profile save per user in flight, each lane
 * sending its next write when the last is answered, until the server dies; then reports what was seen.
 */
function writeUntilKilled(origin: string, admin: Session, savers: Session[]) {
  const seen: Seen = {
    invitations: { acknowledged: new Set(), unanswered: new Set() },
    saves: new Map(savers.map((saver) => [saver.userId, { acknowledged: 0, unanswered: null }])),
    unexpected: [],
  };
  let nextBatch = 0;
  const inviteLane = async () => {
    for (;;) {
      const batch = nextBatch++;
      seen.invitations.unanswered.add(batch);
      const users = Array.from({ length: INVITE_SIZE }, (_, index) => ({ email: inviteEmail(batch, index), role: 'STUDENT' }));
      const answered = await sendWrite(
        `${origin}/api/users/invitations/invite`,
        {
          method: 'POST',
          headers: { authorization: admin.bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ org: admin.org, throughSubscription: true, users }),
        },
        seen.unexpected,
      );
      if (!answered) return;
      seen.invitations.unanswered.delete(batch);
      seen.invitations.acknowledged.add(batch);
    }
  };
  const saveLane = async (saver: Session) => {
    const state = seen.saves.get(saver.userId)!;
    for (let save = 1; ; save += 1) {
      state.unanswered = save;
      const answered = await sendWrite(
        `${origin}/api/users/users/${saver.userId}`,
        {
          method: 'PATCH',
          headers: { authorization: saver.bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ given_name: `Given ${save}`, family_name: `Save ${save}` }),
        },
        seen.unexpected,
      );
      if (!answered) return;
      state.acknowledged = save;
      state.unanswered = null;
    }
  };
  const lanes = Promise.all([inviteLane(), inviteLane(), ...savers.map(saveLane)]);
  return { seen, lanes };
}

/** Opens the data the server left: the embedded database's directory, or the PostgreSQL database. */
type Engine = {
  name: string;
  /** Before the first start. */
  prepare: () => Promise<void>;
  env: (dataDir: string) => Record<string, string>;
  open: (dataDir: string) => Promise<DatabaseHandle>;
  drop: () => Promise<void>;
};

function embeddedEngine(): Engine {
  return {
    name: 'the embedded database',
    prepare: async () => {},
    env: () => ({}),
    open: (dataDir) => openPglite(path.join(dataDir, 'pglite')),
    drop: async () => {},
  };
}

function postgresEngine(serverUrl: string): Engine {
  const name = `patientsim_durability_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  let isCreated = false;
  return {
    name: 'PostgreSQL',
    // An empty scratch database: the server migrates and seeds it on its first start.
    prepare: async () => {
      await admin(`create database ${name}`);
      isCreated = true;
    },
    env: () => ({ DATABASE_URL: url.toString() }),
    open: async () => openPostgres(url.toString(), { max: 2 }),
    drop: async () => {
      if (isCreated) await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

const engines: Engine[] = [embeddedEngine()];
if (process.env.TEST_DATABASE_URL) engines.push(postgresEngine(process.env.TEST_DATABASE_URL));

describe.each(engines)('a server killed in the middle of writes, on $name', (engine) => {
  it('keeps every acknowledged write, and no write by halves, when restarted on the same data', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-durability-'));
    cleanups.push(async () => {
      await engine.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    await engine.prepare();
    const env = { DATA_DIR: dataDir, ...engine.env(dataDir) };

    // The demo's key owner of Riverside EMS Academy invites; ten students save their profiles.
    const first = await startServer(env);
    const admin = await signIn(first.origin, 'owner@demo.test');
    expect(admin.org).toBeTruthy();
    const savers: Session[] = [];
    for (let index = 1; index <= 10; index += 1) {
      savers.push(await signIn(first.origin, `tester${String(index).padStart(2, '0')}@demo.test`));
    }

    const { seen, lanes } = writeUntilKilled(first.origin, admin, savers);
    // Kill once writes of both kinds have been acknowledged, with more of both still in flight.
    await vi.waitFor(
      () => {
        expect(seen.unexpected).toEqual([]);
        expect(seen.invitations.acknowledged.size).toBeGreaterThanOrEqual(2);
        for (const state of seen.saves.values()) expect(state.acknowledged).toBeGreaterThanOrEqual(2);
      },
      { timeout: 120_000, interval: 10 },
    );
    // …right as the next save is answered: the others of its wave are then part-way through.
    const savesAnswered = () => [...seen.saves.values()].reduce((sum, state) => sum + state.acknowledged, 0);
    const answeredBefore = savesAnswered();
    await vi.waitFor(() => expect(savesAnswered()).toBeGreaterThan(answeredBefore), { timeout: 60_000, interval: 1 });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await lanes;
    expect(seen.unexpected).toEqual([]);
    expect(seen.invitations.unanswered.size).toBeGreaterThan(0);
    expect([...seen.saves.values()].some((state) => state.unanswered !== null)).toBe(true);

    // The same data starts again (the embedded database recovers from its log) and serves.
    const second = await startServer(env);
    const again = await signIn(second.origin, 'owner@demo.test');
    expect(again.org).toBe(admin.org);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const database = await engine.open(dataDir);
    const rowsOf = <T>(query: SQL) => selectRows<T>(database.db, query);
    try {
      const invitations = await rowsOf<{ id: string; email: string }>(
        sql`select id, email from invitation where org_id = ${admin.org} and email like 'durable-%'`,
      );
      const inviteAudits = await rowsOf<{ target_id: string; email: string }>(
        sql`select target_id, details->>'email' as email from audit_event
            where action = 'invitation.create' and org_id = ${admin.org} and details->>'email' like 'durable-%'`,
      );
      const batchOf = (email: string) => Number(/^durable-(\d+)-/.exec(email)?.[1]);
      const sent = [...seen.invitations.acknowledged, ...seen.invitations.unanswered];
      for (const batch of sent) {
        const rows = invitations.filter((row) => batchOf(row.email) === batch);
        const audits = inviteAudits.filter((row) => batchOf(row.email) === batch);
        const isAcknowledged = seen.invitations.acknowledged.has(batch);
        // All 50 with their audit events, or (never acknowledged) none of either.
        expect({ batch, invitations: rows.length, isAcknowledged }).toEqual({
          batch,
          invitations: isAcknowledged || rows.length > 0 ? INVITE_SIZE : 0,
          isAcknowledged,
        });
        expect(audits.map((row) => row.target_id).sort()).toEqual(rows.map((row) => row.id).sort());
      }
      // Nothing else was invited under these addresses.
      expect(invitations.every((row) => sent.includes(batchOf(row.email)))).toBe(true);

      const saverIds = savers.map((saver) => saver.userId);
      const profiles = await rowsOf<{ id: string; given_name: string; family_name: string; audits: number | string }>(
        sql`select u.id, u.given_name, u.family_name,
              (select count(*) from audit_event a where a.actor_id = u.id and a.action = 'user.update-profile') as audits
            from "user" u where u.id in (${sql.join(
              saverIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      );
      expect(profiles).toHaveLength(savers.length);
      for (const profile of profiles) {
        const state = seen.saves.get(profile.id)!;
        const save = Number(/^Save (\d+)$/.exec(profile.family_name)?.[1]);
        // The last acknowledged save, or the one in flight: wholly, both names and the audit event.
        expect({ user: profile.id, save, given: profile.given_name, audits: Number(profile.audits) }).toEqual({
          user: profile.id,
          save: state.unanswered !== null && save === state.unanswered ? state.unanswered : state.acknowledged,
          given: `Given ${save}`,
          audits: save,
        });
      }
    } finally {
      await database.close();
    }
  }, 420_000);
});

describe('a write that fails part-way', () => {
  // Its last statement refused by the database: what a crash between two statements would leave,
  // had they not been one transaction.
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  it('leaves neither the profile save nor its audit event, and no invitation of a refused batch', async () => {
    await t.db.execute(sql`create table refused_audit (actor_id text, email text)`);
    await t.db.execute(sql`
      create function refuse_audit() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from refused_audit r where r.actor_id = new.actor_id or r.email = new.details->>'email') then
          raise exception 'audit refused';
        end if;
        return new;
      end $$`);
    await t.db.execute(
      sql`create trigger refuse_audit before insert on audit_event for each row execute function refuse_audit()`,
    );

    const orgId = await insertGroup(t.db, { seats: 100 });
    const student = await signInNewMember(t, orgId, { role: 'STUDENT', givenName: 'Before', familyName: 'Save' });
    await t.db.execute(sql`insert into refused_audit (actor_id) values (${student.userId})`);
    const save = await student.client.request({
      method: 'PATCH',
      url: `/api/users/users/${student.userId}`,
      payload: { given_name: 'After', family_name: 'Crash' },
    });
    expect(save.statusCode).toBe(500);
    const [profile] = await selectRows<{ given_name: string; family_name: string }>(
      t.db,
      sql`select given_name, family_name from "user" where id = ${student.userId}`,
    );
    expect(profile).toEqual({ given_name: 'Before', family_name: 'Save' });

    const admin = await signInNewMember(t, orgId, { role: 'ADMIN' });
    // The last of 50 addresses: its audit event is the batch's last statement.
    await t.db.execute(sql`insert into refused_audit (email) values (${inviteEmail(0, INVITE_SIZE - 1)})`);
    const invite = await admin.client.request({
      method: 'POST',
      url: '/api/users/invitations/invite',
      payload: { org: orgId, users: Array.from({ length: INVITE_SIZE }, (_, index) => ({ email: inviteEmail(0, index) })) },
    });
    expect(invite.statusCode).toBe(500);
    const [left] = await selectRows<{ invitations: number | string; audits: number | string }>(
      t.db,
      sql`select (select count(*) from invitation where org_id = ${orgId}) as invitations,
                 (select count(*) from audit_event where org_id = ${orgId} and action like 'invitation.%') as audits`,
    );
    expect([Number(left?.invitations), Number(left?.audits)]).toEqual([0, 0]);
  });
});
