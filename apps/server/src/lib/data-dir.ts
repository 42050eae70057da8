import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is in use by another PatientSim server (pid ${pid}). Stop it, or start this one with another DATA_DIR.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export class DataDirUnsafeError extends Error {
  constructor(dir: string, mode: number) {
    super(
      `The data directory ${dir} is world-writable (mode ${mode.toString(8)}): anyone on this machine could change the database or the auth secret. Make it private (chmod 700), or start with another DATA_DIR.`,
    );
    this.name = 'DataDirUnsafeError';
  }
}

/**
 * Creates `dir` private to its owner (0700), or makes an existing one that we own private: it
 * holds the database, the auth secret and mails with reset links. A world-writable directory is
 * refused before anything is changed in it, since someone else may already have put files there.
 */
export function prepareDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode, uid } = statSync(dir);
  if (mode & 0o002) throw new DataDirUnsafeError(dir, mode & 0o7777);
  if (uid === process.getuid?.() && (mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/**
 * Takes the group and other permissions off everything under `dir`. PGlite's file layer creates
 * the files of a new database 0666 whatever the umask (it sets their mode explicitly).
 */
export function makeTreePrivate(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      const { mode } = lstatSync(file);
      if (mode & 0o077) chmodSync(file, mode & 0o700);
    } catch (error) {
      // The database may remove a temporary file meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes an exclusive lock on `dir` (PGlite does not lock its own directory: two processes on one
 * directory silently lose writes). A lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dir: string): { release: () => void } {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release: () => {
          try {
            if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) throw new DataDirLockedError(dir, pid);
      unlinkSync(file);
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

/** The process id written in `dir`'s lock, or null when nobody holds it. */
export function lockHolder(dir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dir, 'server.lock'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** AUTH_SECRET when given, else one generated into DATA_DIR on first start and reused after. */
export function resolveAuthSecret(dir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = path.join(dir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
