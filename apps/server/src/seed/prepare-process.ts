/**
 * The short-lived process that prepares an embedded database before the server opens it (see
 * prepare.ts): `<data dir> <seed> <log level>`. Only the server starts it, while it holds the data
 * directory's lock; it exits as soon as the server is gone.
 */
import pino from 'pino';
import { embeddedDatabaseDir, openPglite } from '../db/client.js';
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
const database = await openPglite(databaseDir);
try {
  await prepareDatabase(database, { seed, log });
} finally {
  await database.close();
}
// PGlite creates a new database's files 0666; the private directory alone is one chmod from exposure.
makeTreePrivate(databaseDir);
markPrepared(dataDir);
log.info(
  { ms: Math.round(performance.now() - startedAt), peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6) },
  'embedded database prepared',
);
process.exit(0);
