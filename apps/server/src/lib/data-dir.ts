import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
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

/** A data directory the server cannot use; the message (one line) says why and what to do. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class DataDirLockedError extends DataDirError {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is in use by another PatientSim server (pid ${pid}). Stop it, or start this one with another DATA_DIR.`,
    );
  }
}

/** The directory or the auth secret in it could be read or changed by another user of the machine. */
export class DataDirUnsafeError extends DataDirError {}

/** The directory cannot be created or written (permissions, a read-only file system, a file in the way). */
export class DataDirUnwritableError extends DataDirError {
  constructor(dir: string, code: string) {
    super(
      `The data directory ${dir} cannot be created or written (${code}). Give the server's user a directory it can write, or start with another DATA_DIR.`,
    );
  }
}

const UNWRITABLE_CODES = new Set(['EACCES', 'EPERM', 'ENOTDIR', 'EROFS']);

/** Runs `work` on `dir`, turning the file-system refusals of an unusable directory into DataDirUnwritableError. */
function inDataDir<T>(dir: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && UNWRITABLE_CODES.has(code)) throw new DataDirUnwritableError(dir, code);
    throw error;
  }
}

/** The user this process runs as; undefined where the platform has no user ids. */
const ownUid = () => process.getuid?.();

/**
 * Creates `dir` private to its owner (0700), or makes an existing one of ours private: it holds the
 * database, the auth secret and mails with reset links. A world-writable directory, or one that
 * belongs to another user, is refused before anything is changed in it: someone else may already
 * have put files there, or may read everything written there.
 */
export function prepareDataDir(dir: string): void {
  inDataDir(dir, () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { mode, uid } = statSync(dir);
    if (mode & 0o002) {
      throw new DataDirUnsafeError(
        `The data directory ${dir} is world-writable (mode ${(mode & 0o7777).toString(8)}): anyone on this machine could change the database or the auth secret. Make it private (chmod 700), or start with another DATA_DIR.`,
      );
    }
    const self = ownUid();
    if (self !== undefined && uid !== self) {
      throw new DataDirUnsafeError(
        `The data directory ${dir} belongs to another user (uid ${uid}), not to the user this server runs as (uid ${self}): that user could read or change the database and the auth secret. Give the server a directory of its own user, or start with another DATA_DIR.`,
      );
    }
    if ((mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  });
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
  inDataDir(dir, () => mkdirSync(dir, { recursive: true }));
  const file = path.join(dir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = inDataDir(dir, () => openSync(file, 'wx', 0o600));
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

/**
 * AUTH_SECRET when given, else one generated into DATA_DIR on first start and reused after. A
 * secret file that another user owns, or that group or others may read or write, is refused: it
 * may have been planted, or read.
 */
export function resolveAuthSecret(dir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = path.join(dir, 'auth-secret');
  return inDataDir(dir, () => {
    let fd: number;
    try {
      // Not through a link: what is checked below is the file that is read.
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') {
        throw new DataDirUnsafeError(
          `The auth secret ${file} is a symbolic link, which the server never follows. Remove it, or set AUTH_SECRET.`,
        );
      }
      if (code !== 'ENOENT') throw error;
      mkdirSync(dir, { recursive: true });
      const secret = randomBytes(32).toString('base64url');
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    }
    try {
      const stats = fstatSync(fd);
      const { mode, uid } = stats;
      if (!stats.isFile()) throw new DataDirUnsafeError(`The auth secret ${file} is not a file. Remove it, or set AUTH_SECRET.`);
      const self = ownUid();
      if (self !== undefined && uid !== self) {
        throw new DataDirUnsafeError(
          `The auth secret ${file} belongs to another user (uid ${uid}), not to the user this server runs as (uid ${self}): it may have been planted. Find out who wrote it; remove it to have a new one generated (sessions and signing keys made with the old one stop working), or set AUTH_SECRET.`,
        );
      }
      if (mode & 0o077) {
        throw new DataDirUnsafeError(
          `The auth secret ${file} can be read or written by other users (mode ${(mode & 0o777).toString(8)}): it may have been read or changed. Make it private (chmod 600) once you have checked it, or set AUTH_SECRET.`,
        );
      }
      return readFileSync(fd, 'utf8').trim();
    } finally {
      closeSync(fd);
    }
  });
}
