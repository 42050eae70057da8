import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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
});
