import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { latestMigrationTag } from '../src/db/client.js';
import { ensureEmptyDatabase } from '../src/db/empty-database.js';
import { DEMO_PASSWORD } from '../src/seed/demo.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

/** Runs the real entry point (TypeScript sources through tsx) with the given environment, as `account` when given. */
function startServer(env: Record<string, string>, account: { uid: number; gid: number } | null = null) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SEED: 'none', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...account,
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('PatientSim is ready')) {
        clearInterval(check);
        resolve();
      }
    }, 50);
    void exited.then(() => {
      clearInterval(check);
      reject(new Error(`exited before ready:\n${output}`));
    });
  });
  // Only awaited by tests that expect a start; others must not see an unhandled rejection.
  ready.catch(() => {});
  return { child, exited, ready, output: () => output };
}

// The empty database a new data directory starts from, as the build makes it (the tests run from the sources).
beforeAll(() => ensureEmptyDatabase(), 180_000);

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

describe('server start', () => {
  it('refuses a second server on the same data directory with a clear message', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    const first = startServer({ DATA_DIR: dataDir, PORT: '0' });
    await first.ready;
    const second = startServer({ DATA_DIR: dataDir, PORT: '0' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another PatientSim server');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Once the first has stopped, the directory is free again.
    const third = startServer({ DATA_DIR: dataDir, PORT: '0' });
    await third.ready;
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    // Three servers start one after the other: about 18 s alone, more beside the other test files.
  }, 120_000);

  it('stops at once on bad configuration, listing every bad variable', async () => {
    const bad = startServer({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'patientsim-main-')), PORT: 'abc', SEED: 'lots' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('Invalid configuration');
    expect(bad.output()).toContain('PORT');
    expect(bad.output()).toContain('SEED');
  }, 30_000);

  it('keeps the data directory private: the directory, the database, the secret and the mail outbox', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'patientsim-main-')), 'data');
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    await server.ready;
    const origin = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1];
    const signUp = await fetch(`${origin}/api/users/invitations/invite-unaffiliated`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'private@example.test', accountType: 'EMS' }),
    });
    expect(signUp.status).toBe(200);
    const outbox = path.join(dataDir, 'outbox');
    const [mail] = await vi.waitFor(() => {
      const files = readdirSync(outbox);
      if (files.length === 0) throw new Error('no mail yet');
      return files;
    });
    const modeOf = (file: string) => statSync(file).mode & 0o777;
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'auth-secret'))).toBe(0o600);
    expect(modeOf(outbox)).toBe(0o700);
    expect(modeOf(path.join(outbox, mail ?? ''))).toBe(0o600);
    const database = path.join(dataDir, 'pglite');
    expect(modeOf(database)).toBe(0o700);
    const entries = readdirSync(database, { recursive: true, encoding: 'utf8' }).map((entry) => path.join(database, entry));
    expect(entries.length).toBeGreaterThan(10);
    const shared = entries.filter((entry) => (statSync(entry).mode & 0o077) !== 0);
    expect(shared).toEqual([]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('refuses a world-writable data directory', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    chmodSync(dataDir, 0o777);
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('world-writable');
    expect(readdirSync(dataDir)).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o777);
  }, 30_000);

  it('refuses a data directory that belongs to another user, in one line and without a stack', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    chownSync(dataDir, OTHER_UID, OTHER_UID);
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    expect(await server.exited).toBe(1);
    expect(fatalLines(server.output())).toEqual([
      expect.stringContaining(`The data directory ${dataDir} belongs to another user`),
    ]);
    expect(server.output()).not.toMatch(STACK_FRAME);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 30_000);

  it('refuses an auth secret planted by another user, or readable by others, and frees the data directory', async () => {
    for (const [mode, uid] of [
      [0o644, OTHER_UID],
      [0o644, process.getuid?.() ?? 0],
    ] as const) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
      const secret = path.join(dataDir, 'auth-secret');
      writeFileSync(secret, 'planted-secret-0123456789abcdefghijklmnop');
      chmodSync(secret, mode);
      chownSync(secret, uid, uid);
      const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
      expect(await server.exited).toBe(1);
      expect(fatalLines(server.output())).toEqual([expect.stringContaining(`The auth secret ${secret}`)]);
      expect(server.output()).not.toContain('PatientSim is ready');
      expect(server.output()).not.toMatch(STACK_FRAME);
      expect(readdirSync(dataDir)).toEqual(['auth-secret']);
    }
  }, 60_000);

  it('stops with a one-line message when the data directory cannot be created or written', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'patientsim-main-')), 'a-file');
    writeFileSync(file, 'not a directory');
    const dataDir = path.join(file, 'data');
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    expect(await server.exited).toBe(1);
    expect(fatalLines(server.output())).toEqual([
      expect.stringContaining(`The data directory ${dataDir} cannot be created or written (ENOTDIR)`),
    ]);
    expect(server.output()).not.toMatch(STACK_FRAME);
  }, 30_000);

  it('prepares a new data directory in a process of its own within 450 MB, then serves the demo data; a second start skips that step', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'patientsim-main-')), 'data');
    const first = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'demo' });
    await first.ready;
    const logs = parseLog(first.output());
    const serverPid = first.child.pid;
    const prepared = logs.find((line) => line.msg === 'embedded database prepared');
    expect(prepared).toBeDefined();
    // No process of the product holds more than 450 MB: the new database is a copy of the build's
    // empty one, not made by initdb in this process (about 800 MB).
    expect(prepared?.createdFrom).toBe('empty database');
    expect(prepared?.peakRssMb).toBeLessThanOrEqual(450);
    // The migrations and the seed ran in another process, which finished before the server opened
    // the database.
    expect(prepared?.pid).not.toBe(serverPid);
    expect(logs.find((line) => line.msg === 'seeding the demo data')?.pid).toBe(prepared?.pid);
    expect(logs.findIndex((line) => line === prepared)).toBeLessThan(
      logs.findIndex((line) => line.msg?.startsWith('PatientSim is ready')),
    );
    expect(readFileSync(path.join(dataDir, 'database-version'), 'utf8').trim()).toBe(latestMigrationTag());

    const origin = originOf(first.output());
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    expect((await signIn(origin, 'owner@demo.test')).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'demo' });
    await second.ready;
    expect(second.output()).not.toContain('preparing the embedded database');
    expect(second.output()).not.toContain('seeding the demo data');
    expect((await signIn(originOf(second.output()), 'student@demo.test')).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);

  it('prepares again a data directory whose last preparation did not finish', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    const first = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'none' });
    await first.ready;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // As after a preparation stopped half-way (or a build with migrations this directory lacks).
    writeFileSync(path.join(dataDir, 'database-version'), '0000_older\n');
    const second = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'demo' });
    await second.ready;
    expect(parseLog(second.output()).find((line) => line.msg === 'seeding the demo data')?.pid).not.toBe(second.child.pid);
    expect(readFileSync(path.join(dataDir, 'database-version'), 'utf8').trim()).toBe(latestMigrationTag());
    expect((await signIn(originOf(second.output()), 'owner@demo.test')).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);

  it('stops with a clear message and frees the data directory when the preparation fails', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    // Where the embedded database belongs there is a file: it cannot be created.
    writeFileSync(path.join(dataDir, 'pglite'), 'not a directory');
    const server = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'demo' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('holds no database (it has no PG_VERSION) but is not empty');
    expect(server.output()).toContain('Preparing the embedded database failed');
    expect(server.output()).not.toContain('PatientSim is ready');
    expect(readFileSync(path.join(dataDir, 'pglite'), 'utf8')).toBe('not a directory');
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'database-version'))).toBe(false);
  }, 60_000);

  it('ends the preparation when the server is killed during it, and the next start prepares the directory again', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    const server = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'demo' });
    const serverPid = server.child.pid ?? 0;
    const preparing = await vi.waitFor(
      () => {
        const [pid] = childPids(serverPid);
        if (!pid || !server.output().includes('preparing the embedded database')) throw new Error('not preparing yet');
        // Once it has begun to write the new database's files.
        if (!existsSync(path.join(dataDir, 'pglite')) && !existsSync(path.join(dataDir, 'pglite.new'))) {
          throw new Error('no database files yet');
        }
        return pid;
      },
      { timeout: 60_000, interval: 20 },
    );
    server.child.kill('SIGKILL');
    await server.exited;
    // An orphan would go on writing into a directory whose lock has just been freed.
    await vi.waitFor(
      () => {
        if (isRunning(preparing)) throw new Error(`process ${preparing} still runs`);
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(existsSync(path.join(dataDir, 'database-version'))).toBe(false);
    // No half-made database where the server opens one.
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);

    const next = startServer({ DATA_DIR: dataDir, PORT: '0', SEED: 'demo' });
    await next.ready;
    expect(next.output()).toContain('embedded database prepared');
    expect((await signIn(originOf(next.output()), 'owner@demo.test')).status).toBe(200);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 180_000);

  it('stops with a clear message when the embedded database cannot recover, and the next start serves again', async () => {
    // File modes bind every account but root: as root, the server runs as an unprivileged account.
    const account = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    if (account) chownSync(dataDir, account.uid, account.gid);
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' }, account);
    await server.ready;
    const database = path.join(dataDir, 'pglite');
    // For a moment the database's files cannot be written, as on a file system remounted read-only
    // or a directory whose owner changed by mistake; a table first read then cannot be opened.
    setWritable(database, false);
    const during = await inviteUnaffiliated(originOf(server.output()), 'during@example.test').catch(() => null);
    setWritable(database, true);
    expect(during?.status ?? 500).toBe(500);
    // The engine would refuse that table until a restart: the process stops, for its supervisor.
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('The embedded database failed and cannot recover while this process runs');
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    const next = startServer({ DATA_DIR: dataDir, PORT: '0' }, account);
    await next.ready;
    const origin = originOf(next.output());
    expect((await inviteUnaffiliated(origin, 'after@example.test')).status).toBe(200);
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 120_000);

  it('refuses to prepare a data directory unless the server that holds its lock started the preparation', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'patientsim-main-'));
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/seed/prepare-process.ts', dataDir, 'demo', 'info'],
      { cwd: SERVER_DIR, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(output).toContain('runs only when the server starts it');
    expect(readdirSync(dataDir)).toEqual([]);
  }, 30_000);
});

type LogLine = { pid?: number; msg?: string; level?: number; createdFrom?: string; peakRssMb?: number };

/** A user id that is not the one the tests run as ("nobody"). */
const OTHER_UID = 65534;
/** A line of a JavaScript stack trace. */
const STACK_FRAME = /^\s+at /m;

/** The messages the server logged as fatal (pino level 60). */
function fatalLines(output: string): string[] {
  return parseLog(output)
    .filter((line) => line.level === 60)
    .map((line) => line.msg ?? '');
}

/** The processes `pid` started that still run. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Whether `pid` runs (an exited process waiting to be reaped does not). */
function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+[ZX]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function parseLog(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function originOf(output: string): string {
  const origin = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  if (!origin) throw new Error(`no listening address in:\n${output}`);
  return origin;
}

/** Makes every file and directory under `dir` writable by its owner again, or read-only. */
function setWritable(dir: string, isWritable: boolean) {
  for (const entry of [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name))]) {
    const isDirectory = statSync(entry).isDirectory();
    chmodSync(entry, isWritable ? (isDirectory ? 0o700 : 0o600) : isDirectory ? 0o500 : 0o400);
  }
}

function inviteUnaffiliated(origin: string, email: string) {
  return fetch(`${origin}/api/users/invitations/invite-unaffiliated`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, accountType: 'EMS' }),
  });
}

function signIn(origin: string, email: string) {
  return fetch(`${origin}/api/users/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
}
