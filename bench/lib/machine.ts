import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './server.js';

export type MachineFacts = {
  cpuModel: string;
  logicalCores: number;
  availableParallelism: number;
  memoryGb: number;
  platform: string;
  kernel: string;
  node: string;
  uvThreadpoolSize: number;
  autocannon: string;
  pglite: string;
  commit: string | null;
  worktreeDirty: boolean | null;
};

function packageVersion(name: string): string {
  try {
    const file = path.join(REPO_ROOT, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** What a figure depends on: the processor, the core count, the runtime and the measured versions. */
export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  const status = git(['--no-optional-locks', 'status', '--porcelain']);
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    logicalCores: cpus.length,
    availableParallelism: os.availableParallelism(),
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    node: process.version,
    uvThreadpoolSize: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
    autocannon: packageVersion('autocannon'),
    pglite: packageVersion('@electric-sql/pglite'),
    commit: git(['rev-parse', '--short=12', 'HEAD']),
    worktreeDirty: status === null ? null : status.length > 0,
  };
}
