import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadEnv } from './config/env.js';
import { openPglite, openPostgres } from './db/client.js';
import { DataDirLockedError, lockDataDir, resolveAuthSecret } from './lib/data-dir.js';
import { isDatabaseEmpty, seedDemo } from './seed/demo.js';
import path from 'node:path';

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
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }

  const secret = resolveAuthSecret(dataDir, env.AUTH_SECRET);
  const database = env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : await openPglite(path.join(dataDir, 'pglite'));
  await database.migrate();
  if (env.SEED === 'demo' && (await isDatabaseEmpty(database.db))) {
    logger.info('seeding the demo data');
    await seedDemo(database.db);
  }

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
