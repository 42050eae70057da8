import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuSeconds } from './cpu.js';
import { sleep } from './stats.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/main.js');
export const HOST = '127.0.0.1';

/** Every server this run spawned and has not seen exit; killed on any way out. */
const live = new Set<ChildProcess>();

export function killAllServers(signal: NodeJS.Signals = 'SIGKILL') {
  for (const child of live) child.kill(signal);
}

/** A port nobody listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('could not pick a free port'))));
    });
  });
}

/** Variables a developer's shell may hold that would change what is measured. */
const STRIPPED_ENV = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'AUTH_SECRET',
  'NODE_ENV',
  'NODE_OPTIONS',
  'HOST',
  'PORT',
  'PUBLIC_URL',
  'DATA_DIR',
  'SEED',
  'LOG_LEVEL',
  'INTEGRATION_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_API_BASE',
];

/** From /proc/<pid>/status: resident set now and at its peak, and its anonymous and file-backed parts. */
export type MemoryFigures = { rssMb: number; peakRssMb: number; anonMb: number; fileMb: number };

export type RunningServer = {
  label: string;
  pid: number;
  port: number;
  baseUrl: string;
  /** Milliseconds from spawn to the first 200 from GET /readyz. */
  readyMs: number;
  /** Processes the server ran while it started (a new embedded database is prepared by one), with their peak RSS. */
  startChildren: { pid: number; peakRssMb: number }[];
  memory: () => MemoryFigures | null;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds: () => number | null;
  logTail: () => string;
  stop: () => Promise<void>;
};

export type StartOptions = {
  label: string;
  dataDir: string;
  databaseUrl?: string;
  /** How long to wait for /readyz before giving up. */
  timeoutMs?: number;
  /** More variables, over the defaults above (several processes share REDIS_URL, AUTH_SECRET, PUBLIC_URL). */
  env?: Record<string, string>;
};

const MB = 1_000_000;

function readProcStatus(pid: number): MemoryFigures | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    const mb = (field: string) => (kib(field) * 1024) / MB;
    return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM'), anonMb: mb('RssAnon'), fileMb: mb('RssFile') };
  } catch {
    return null;
  }
}

/** Child processes of `pid` right now (Linux lists them per thread; the main thread starts ours). */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function probeReady(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: HOST, port, path: '/readyz', agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/**
 * Spawns `node apps/server/dist/main.js` on a free loopback port and resolves once GET /readyz
 * answers 200. The server is killed if it does not become ready in time.
 */
export async function startServer({
  label,
  dataDir,
  databaseUrl,
  timeoutMs = 60_000,
  env: extraEnv = {},
}: StartOptions): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://${HOST}:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STRIPPED_ENV) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    SEED: 'demo',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extraEnv,
  });

  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(chunk.toString('utf8'));
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  const logTail = () => log.join('').split('\n').slice(-40).join('\n');

  const startedAt = performance.now();
  const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      live.delete(child);
      resolve();
    });
  });
  child.once('error', (error) => keep(Buffer.from(`spawn error: ${error.message}\n`)));

  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    // The server closes gracefully (at most 10 s); past that it is killed.
    const graceful = await Promise.race([exitedPromise.then(() => true), sleep(15_000).then(() => false)]);
    if (!graceful) {
      child.kill('SIGKILL');
      await exitedPromise;
    }
  };

  const pid = child.pid ?? -1;
  const deadline = startedAt + timeoutMs;
  // Each child's peak is read while it lives: it is gone from /proc once it exits.
  const startChildren = new Map<number, number>();
  const watchChildren = () => {
    for (const childPid of childPids(pid)) {
      const peak = readProcStatus(childPid)?.peakRssMb;
      if (peak !== undefined && Number.isFinite(peak))
        startChildren.set(childPid, Math.max(peak, startChildren.get(childPid) ?? 0));
    }
  };
  for (;;) {
    watchChildren();
    if (exited) {
      const { code, signal } = exited as { code: number | null; signal: NodeJS.Signals | null };
      throw new Error(`${label}: the server exited before it was ready (code ${code}, signal ${signal})\n${logTail()}`);
    }
    if (await probeReady(port)) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`${label}: /readyz did not answer 200 within ${timeoutMs / 1000} s\n${logTail()}`);
    }
    await sleep(20);
  }
  const readyMs = performance.now() - startedAt;

  return {
    label,
    pid,
    port,
    baseUrl,
    readyMs,
    startChildren: [...startChildren].map(([childPid, peakRssMb]) => ({ pid: childPid, peakRssMb })),
    memory: () => readProcStatus(pid),
    cpuSeconds: () => processCpuSeconds(pid),
    logTail,
    stop,
  };
}
