import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

/** Runs the real entry point (TypeScript sources through tsx) with the given environment. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SEED: 'none', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
  }, 60_000);

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
});
