import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadEnv } from './config/env.js';
import { openPglite, openPostgres } from './db/client.js';
import {
  DataDirLockedError,
  DataDirUnsafeError,
  lockDataDir,
  makeTreePrivate,
  prepareDataDir,
  resolveAuthSecret,
} from './lib/data-dir.js';
import { isDatabaseEmpty, seedDemo } from './seed/demo.js';
import path from 'node:path';

// Everything this process creates (database files, the auth secret, mails with reset links, the
// lock) is for its owner only.
process.umask(0o077);

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

  let lock: { release: () => void };
  try {
    prepareDataDir(dataDir);
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof DataDirUnsafeError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }

  const secret = resolveAuthSecret(dataDir, env.AUTH_SECRET);
  const databaseDir = path.join(dataDir, 'pglite');
  const database = env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : await openPglite(databaseDir);
  await database.migrate();
  if (env.SEED === 'demo' && (await isDatabaseEmpty(database.db))) {
    logger.info('seeding the demo data');
    await seedDemo(database.db);
  }
  // PGlite creates a new database's files 0666; the private directory alone is one chmod from exposure.
  if (database.engine === 'pglite') makeTreePrivate(databaseDir);

  const app = await buildApp({ env, database, secret, logger: { level: env.LOG_LEVEL } });
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
