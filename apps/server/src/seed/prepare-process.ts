/**
 * The short-lived process that prepares an embedded database before the server opens it (see
 * prepare.ts): `<data dir> <seed> <log level>`. Only the server starts it, while it holds the data
 * directory's lock; it exits as soon as the server is gone.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { embeddedDatabaseDir, openPglite } from '../db/client.js';
import { copyEmptyDatabase } from '../db/empty-database.js';
import { lockHolder, makeTreePrivate } from '../lib/data-dir.js';
import { markPrepared, prepareDatabase } from './prepare.js';

process.umask(0o077);

const [dataDir = '', seed = '', logLevel = 'info'] = process.argv.slice(2);
const log = pino({ level: logLevel });

// PGlite does not lock its directory: working in it is safe only under the lock of the server
// that started this process (and talks to it over the channel fork opens).
if (!process.send || lockHolder(dataDir) !== process.ppid || (seed !== 'demo' && seed !== 'none')) {
  log.fatal('the database preparation runs only when the server starts it');
  process.exit(2);
}
process.once('disconnect', () => {
  log.error('the server stopped while the database was being prepared');
  process.exit(1);
});

const startedAt = performance.now();
const databaseDir = embeddedDatabaseDir(dataDir);
const isNew = !existsSync(path.join(databaseDir, 'PG_VERSION'));
// A new database is made beside its place and moved there once migrated and seeded: a preparation
// cut short leaves no half-made database where the server would open it, only this directory,
// which the next preparation starts over.
const workDir = isNew ? `${databaseDir}.new` : databaseDir;
// Where the new database goes there may be nothing, or an empty directory; anything else might be
// someone's, and is left alone, before any work is done.
if (isNew && existsSync(databaseDir) && !(statSync(databaseDir).isDirectory() && readdirSync(databaseDir).length === 0)) {
  log.fatal(
    `${databaseDir} holds no database (it has no PG_VERSION) but is not empty: move it away to start a new database there`,
  );
  process.exit(1);
}
let createdFrom: 'empty database' | 'initdb' | null = null;
if (isNew) {
  rmSync(workDir, { recursive: true, force: true });
  createdFrom = copyEmptyDatabase(workDir) ? 'empty database' : 'initdb';
  if (createdFrom === 'initdb') {
    log.warn(
      'no empty database from the build for this PGlite (npm run build makes one): PGlite runs initdb, which takes about 800 MB',
    );
  }
}
const database = await openPglite(workDir);
try {
  await prepareDatabase(database, { seed, log });
} finally {
  await database.close();
}
// PGlite creates a new database's files 0666; the private directory alone is one chmod from exposure.
makeTreePrivate(workDir);
if (isNew) renameSync(workDir, databaseDir);
markPrepared(dataDir);
log.info(
  {
    ms: Math.round(performance.now() - startedAt),
    createdFrom,
    peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
  },
  'embedded database prepared',
);
process.exit(0);
