/**
 * The empty database a new embedded database starts from, made once by the build.
 *
 * PGlite creates a database by running `initdb` against a second PostgreSQL instance in the same
 * process, and copies that instance's whole WebAssembly heap to restore it before each of the steps
 * `initdb` runs: a process that creates a database holds about 800 MB for some seconds, and none
 * of PGlite's options sizes that down. Every new database is the same empty cluster until the
 * migrations run, so the build runs `initdb` once (a build step, as the compiler is) and keeps the
 * cluster's files; a new data directory starts as a copy of them, which PGlite then opens as any
 * existing database, for what opening one costs (decision 0052). A copy of files, not PGlite's
 * `loadDataDir`: that reads a whole tarball into memory, and holds it and its unpacked copy
 * (about 90 MB) until the garbage collector gets to them.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/** The server package's build output, from the sources (`src/db`) and from the build (`dist/db`) alike. */
const BUILD_DIR = fileURLToPath(new URL('../../dist/db/', import.meta.url));

/** The installed PGlite's version: a cluster is opened only by the PGlite that made it. */
export function pgliteVersion(): string {
  const wasm = createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm');
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(wasm), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Where the build keeps the empty database of the installed PGlite. */
export function emptyDatabaseDir(buildDir: string = BUILD_DIR): string {
  return path.join(buildDir, `empty-database-pglite-${pgliteVersion()}`);
}

/**
 * Copies the empty database into `databaseDir` (which must not exist yet); false, copying nothing,
 * when no build made one for the installed PGlite.
 */
export function copyEmptyDatabase(databaseDir: string, from: string = emptyDatabaseDir()): boolean {
  if (!existsSync(path.join(from, 'PG_VERSION'))) return false;
  cpSync(from, databaseDir, { recursive: true, errorOnExist: true, force: false });
  // The copy is the server's own data: private to its user, whatever modes the build left.
  setModes(databaseDir, { directory: 0o700, file: 0o600 });
  return true;
}

/**
 * Makes the empty database of the installed PGlite at `dir`, unless it is there already. Runs
 * `initdb`, so it is for the build (and the tests).
 */
export async function ensureEmptyDatabase(dir: string = emptyDatabaseDir()): Promise<string> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  // Two builds or test files at once each make a whole one of their own, and move it into place in
  // one step: the first to finish wins, and nobody ever copies half of one.
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // A fresh checkout has no build output yet when the tests make it.
  mkdirSync(path.dirname(partial), { recursive: true });
  const pglite = new PGlite(partial);
  await pglite.waitReady;
  // Closing shuts PostgreSQL down cleanly: a checkpoint, and nothing left only in the write-ahead log.
  await pglite.close();
  // Read-only for everyone, like the rest of the build: a server may run as another user.
  setModes(partial, { directory: 0o755, file: 0o644 });
  try {
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(path.join(dir, 'PG_VERSION'))) throw error;
  }
  return dir;
}

/** Gives every directory and file under `dir` (itself included) these modes. */
function setModes(dir: string, modes: { directory: number; file: number }): void {
  chmodSync(dir, modes.directory);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) setModes(entryPath, modes);
    else chmodSync(entryPath, modes.file);
  }
}
