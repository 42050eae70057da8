import { Redis } from 'ioredis';

/** The Redis server the suite uses (`.ci/run` starts the machine's one when it is down). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Checks that Redis answers before a file that needs it runs: a missing Redis fails the suite with
 * a clear message instead of skipping what only Redis can prove.
 */
export async function requireRedis(): Promise<void> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    if ((await probe.ping()) !== 'PONG') throw new Error('no PONG');
  } catch (error) {
    throw new Error(
      `These tests need Redis at ${TEST_REDIS_URL} (start it, e.g. "redis-server --daemonize yes", or set TEST_REDIS_URL)`,
      { cause: error },
    );
  } finally {
    probe.disconnect();
  }
}

/**
 * The test Redis on its database `index` (1 to 15). Publish/subscribe channels name the database,
 * so servers on a database of their own hear only each other, whatever else uses the Redis server.
 */
export function testRedisUrlOnDatabase(index: number): string {
  const url = new URL(TEST_REDIS_URL);
  url.pathname = `/${index}`;
  return url.toString();
}
