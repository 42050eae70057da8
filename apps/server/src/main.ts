import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadEnv } from './config/env.js';
import { embeddedDatabaseDir, openPglite, openPostgres } from './db/client.js';
import { SigningKeyError } from './identity/tokens.js';
import { DataDirError, lockDataDir, makeTreePrivate, prepareDataDir, resolveAuthSecret } from './lib/data-dir.js';
import { needsSeparatePreparation, PreparationFailedError, prepareDatabase, prepareInSeparateProcess } from './seed/prepare.js';
import path from 'node:path';
import v8 from 'node:v8';

// Everything this process creates (database files, the auth secret, mails with reset links, the
// lock) is for its owner only.
process.umask(0o077);

// A full garbage collection once the JavaScript heap has grown by half since the last one. V8's
// own rule lets a heap this small (about 40 MB live) grow fourfold first: under load the server
// then holds 50–80 MB of garbage more, which on PostgreSQL is a third of its memory (decision 0017).
// V8 reads this setting at every collection, so setting it here, before the first, is enough.
v8.setFlagsFromString('--heap-growing-percent=50');

/** How long requests under way may take to answer once the embedded engine broke, before the process exits. */
const BROKEN_ENGINE_GRACE_MS = 2_000;

/** config -> database -> app -> listen; graceful shutdown. */
async function main() {
  const startedAt = performance.now();
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino({ level: env.LOG_LEVEL });
  const dataDir = path.resolve(env.DATA_DIR);

  let lock: { release: () => void } | undefined;
  let secret: string;
  try {
    prepareDataDir(dataDir);
    lock = lockDataDir(dataDir);
    secret = resolveAuthSecret(dataDir, env.AUTH_SECRET);
  } catch (error) {
    if (error instanceof DataDirError) {
      logger.fatal(error.message);
      lock?.release();
      process.exit(1);
    }
    throw error;
  }
  const databaseDir = embeddedDatabaseDir(dataDir);
  // A new embedded database is created, migrated and seeded by a process of its own, so this one
  // never holds the memory that takes (decision 0017).
  if (!env.DATABASE_URL && needsSeparatePreparation(dataDir)) {
    logger.info('preparing the embedded database in a separate process (migrations, demo data)');
    try {
      await prepareInSeparateProcess({ dataDir, seed: env.SEED, logLevel: env.LOG_LEVEL });
    } catch (error) {
      if (!(error instanceof PreparationFailedError)) throw error;
      logger.fatal(error.message);
      lock.release();
      process.exit(1);
    }
  }
  // Some failures of the embedded engine last as long as the process (db/client.ts isEngineBroken):
  // it stops, so that a supervisor starts it again on the same files, which a new process reads
  // afresh. Answers under way go out if they come within a moment; the engine is not closed, as its
  // next query may never return.
  let closeApp = async () => {};
  let isStopping = false;
  const stopOnBrokenEngine = (error: unknown) => {
    if (isStopping) return;
    isStopping = true;
    logger.fatal(
      { err: error },
      'The embedded database failed and cannot recover while this process runs; stopping so that a supervisor restarts the server',
    );
    const exit = () => {
      lock.release();
      process.exit(1);
    };
    setTimeout(exit, BROKEN_ENGINE_GRACE_MS);
    void closeApp().finally(exit);
  };
  const database = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL)
    : await openPglite(databaseDir, { onBroken: stopOnBrokenEngine });
  await prepareDatabase(database, { seed: env.SEED, log: logger });
  // PGlite creates a new database's files 0666; the private directory alone is one chmod from exposure.
  if (database.engine === 'pglite') makeTreePrivate(databaseDir);

  const app = await buildApp({ env, database, secret, logger: { level: env.LOG_LEVEL } });
  closeApp = () => app.close();
  try {
    await app.tokens.checkSigningKey();
  } catch (error) {
    if (!(error instanceof SigningKeyError)) throw error;
    logger.fatal(error.message);
    await app.close();
    await database.close();
    lock.release();
    process.exit(1);
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    lock.release();
  });
  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    { url: env.PUBLIC_URL, engine: database.engine, startupMs: Math.round(performance.now() - startedAt) },
    `PatientSim is ready on ${env.PUBLIC_URL}`,
  );
}

await main();
