import { Redis, type RedisOptions } from 'ioredis';

/**
 * How every Redis connection of the server meets a Redis that cannot be reached or stops answering
 * (decision 0036): it fails fast and recovers on its own.
 * - A connection that gets no byte back while commands wait (`socketTimeout`: a partition, a stuck
 *   proxy, a paused Redis) is dropped and made again, like one Redis closed; the TCP connect and the
 *   handshake have their own bound (`connectTimeout`, and `socketTimeout` again for the handshake).
 * - While a connection is down, a command fails at once (`enableOfflineQueue: false`) and a command
 *   whose connection broke is not sent again on the next one (`maxRetriesPerRequest: 0`): it may
 *   have run already, and its request has answered 503.
 * - `commandTimeout` bounds every command whatever happens to its connection; keep-alive lets the
 *   operating system notice a peer that vanished while the connection idled.
 */
export const REDIS_OPTIONS = {
  connectTimeout: 2_000,
  socketTimeout: 2_000,
  commandTimeout: 3_000,
  keepAlive: 10_000,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
} as const satisfies RedisOptions;

/**
 * How often an idle connection is asked whether Redis still answers. A connection that carries no
 * command never notices a silent Redis on its own (the subscriber for invalidations carries none
 * once subscribed); an unanswered PING trips `socketTimeout`, which drops the connection.
 */
export const REDIS_PING_INTERVAL_MS = 2_000;

/** A client on `url` with the options above, checked while it idles; `onError` hears every failed attempt. */
export function createRedisClient(url: string, { onError }: { onError: (error: Error) => void }): Redis {
  const client = new Redis(url, REDIS_OPTIONS);
  // ioredis reconnects on its own; without a listener it would print every failed attempt to stderr.
  client.on('error', onError);
  keepChecking(client);
  return client;
}

/**
 * PINGs `client` every `intervalMs` while it is ready, until it ends: an unanswered PING makes the
 * connection time out, and ioredis connects again (decision 0036).
 */
export function keepChecking(client: Redis, intervalMs = REDIS_PING_INTERVAL_MS): void {
  const timer = setInterval(() => {
    // A failure is the connection's to handle (it drops and reconnects); nobody waits for the answer.
    if (client.status === 'ready') client.ping().catch(() => {});
  }, intervalMs);
  timer.unref();
  client.once('end', () => clearInterval(timer));
}

/**
 * Resolves once `client` is connected and ready; rejects with the error of its first failed attempt,
 * so that a server that cannot reach Redis as it starts does not start.
 */
export function untilReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      client.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      client.off('ready', onReady);
      reject(error);
    };
    client.once('ready', onReady);
    client.once('error', onError);
  });
}

/** Whether Redis answers `client` now (within the connection's timeouts). */
export async function isAnswering(client: Redis): Promise<boolean> {
  try {
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  }
}
