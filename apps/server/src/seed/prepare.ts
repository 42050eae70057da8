/**
 * Readies a database for serving: the migrations, then the demo data into an empty database
 * (`SEED=demo`).
 *
 * On the embedded engine the serving process does not do this work itself when there is any to
 * do: PGlite creates a database with a second PostgreSQL instance and `initdb`, which takes the
 * process to about three times the memory serving needs; the WebAssembly heap of the instance that
 * stays never shrinks, and the rest comes back only when the garbage collector gets to it. A
 * short-lived process of its own prepares the data directory, under the server's lock, and exits
 * before the server opens the database; the server then starts as on any later day (decision 0017).
 */
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Env } from '../config/env.js';
import { type DatabaseHandle, embeddedDatabaseDir, latestMigrationTag } from '../db/client.js';
import { isDatabaseEmpty, seedDemo } from './demo.js';

type Seed = Env['SEED'];

/**
 * Migrations, then the demo data into an empty database, by one server process at a time. Cheap
 * when there is nothing to do.
 */
export function prepareDatabase(database: DatabaseHandle, { seed, log }: { seed: Seed; log: Logger }) {
  return database.exclusively(async () => {
    await database.migrate();
    if (seed === 'demo' && (await isDatabaseEmpty(database.db))) {
      log.info('seeding the demo data');
      await seedDemo(database.db);
    }
  });
}

/** Names, in the data directory, the last migration a separate preparation applied there. */
const preparedFile = (dataDir: string) => path.join(dataDir, 'database-version');

/**
 * Whether the embedded database in `dataDir` is to be prepared by a separate process first: a new
 * data directory (or one whose database was removed), one whose last preparation did not finish,
 * or one this build brings new migrations to. The note is only a shortcut: the server still runs
 * the (then empty) preparation.
 */
export function needsSeparatePreparation(dataDir: string): boolean {
  if (!existsSync(path.join(embeddedDatabaseDir(dataDir), 'PG_VERSION'))) return true;
  try {
    return readFileSync(preparedFile(dataDir), 'utf8').trim() !== latestMigrationTag();
  } catch {
    return true;
  }
}

/** Notes that the embedded database in `dataDir` is migrated to this build's last migration. */
export function markPrepared(dataDir: string): void {
  writeFileSync(preparedFile(dataDir), `${latestMigrationTag()}\n`, { mode: 0o600 });
}

export class PreparationFailedError extends Error {
  constructor(detail: string) {
    super(`Preparing the embedded database failed (${detail}); see the messages above.`);
    this.name = 'PreparationFailedError';
  }
}

// The entry of that process, next to this module (TypeScript when run from the sources).
const ENTRY = fileURLToPath(new URL(`./prepare-process${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/**
 * Prepares the embedded database in `dataDir` in a short-lived child process and waits for it to
 * exit. The caller holds the data directory's lock; the child checks that its parent does.
 */
export function prepareInSeparateProcess({
  dataDir,
  seed,
  logLevel,
}: {
  dataDir: string;
  seed: Seed;
  logLevel: Env['LOG_LEVEL'];
}): Promise<void> {
  return new Promise((resolve, reject) => {
    // The same Node.js options (a TypeScript loader in development); what the child needs comes
    // as arguments, and the channel tells it when this process is gone.
    const child = fork(ENTRY, [dataDir, seed, logLevel], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', (error) => reject(new PreparationFailedError(error.message)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new PreparationFailedError(signal ? `stopped by ${signal}` : `exit code ${code}`));
    });
  });
}
