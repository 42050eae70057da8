import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { keepChecking, untilReady } from './redis.js';

/**
 * What a change makes every other process forget:
 * - `identity`: users, groups, memberships and sessions (the read cache of claims, groups and sessions);
 * - `keys`: the token signing keys (and so every remembered token verification).
 */
export type Topic = 'identity' | 'keys';

const TOPICS: readonly Topic[] = ['identity', 'keys'];

/**
 * How server processes tell each other what changed, so that nothing one of them remembers outlives
 * a write made by another (decision 0019).
 */
export type Invalidations = {
  /** Tells every other process that `topic` changed; this process forgets on its own. */
  announce: (topic: Topic) => void;
  /**
   * Runs `listener` when another process announces `topic`, and after the subscription was lost
   * and is back (whatever was announced meanwhile is lost, so everything must be forgotten).
   */
  listen: (topic: Topic, listener: () => void) => void;
  /** False while announcements can be missed (the subscription is down): nothing remembered is to be trusted. */
  isListening: () => boolean;
  close: () => Promise<void>;
};

/** One process (the embedded database belongs to one): there is nobody to tell. */
export function createLocalInvalidations(): Invalidations {
  return { announce() {}, listen() {}, isListening: () => true, close: async () => {} };
}

/**
 * Several processes behind a load balancer: announcements go through Redis publish/subscribe. While
 * the subscriber connection or the shared one is down, `isListening` is false (caches read through); once it is back,
 * every listener runs once, because announcements made meanwhile are lost.
 *
 * Resolves once subscribed: a process that cannot reach Redis at start does not start.
 */
export async function createRedisInvalidations(redis: Redis): Promise<Invalidations> {
  const instance = randomUUID();
  // Publish/subscribe ignores Redis database numbers: the channel names the database, so that
  // deployments sharing one Redis server on different databases do not hear each other.
  const channel = `patientsim:invalidate:${redis.options.db ?? 0}`;
  const listeners = new Map<Topic, Array<() => void>>(TOPICS.map((topic) => [topic, []]));
  const notify = (topics: readonly Topic[]) => {
    for (const topic of topics) for (const listener of listeners.get(topic) ?? []) listener();
  };

  let isListening = false;
  let isClosed = false;
  // Subscribed again by hand after a reconnect (below), so that the moment it is back is known.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  // The connection retries on its own; meanwhile isListening is false and caches read through.
  subscriber.on('error', () => {});
  // Once subscribed it sends nothing: only a PING finds out that Redis stopped answering it.
  keepChecking(subscriber);
  const stopListening = () => {
    isListening = false;
  };
  subscriber.on('close', stopListening);
  subscriber.on('end', stopListening);
  subscriber.on('message', (_channel: string, message: string) => {
    const [from, topic] = message.split(' ');
    if (from === instance || !TOPICS.includes(topic as Topic)) return;
    notify([topic as Topic]);
  });
  const subscribe = async () => {
    await subscriber.subscribe(channel);
    notify(TOPICS);
    isListening = true;
  };
  try {
    await untilReady(subscriber);
    await subscribe();
  } catch (error) {
    subscriber.disconnect();
    throw error;
  }
  subscriber.on('ready', () => {
    if (!isClosed) subscribe().catch(stopListening);
  });

  return {
    announce(topic) {
      // Written to the connection at once, ahead of the answer that follows the change. When Redis
      // cannot be reached, the others forget at the read cache's lifetime instead.
      redis.publish(channel, `${instance} ${topic}`).catch(() => {});
    },
    listen(topic, listener) {
      listeners.get(topic)?.push(listener);
    },
    // The shared connection may find Redis gone before the subscriber does (its PING is what notices
    // a silent subscriber): once either has, nothing remembered is trusted.
    isListening: () => isListening && redis.status === 'ready',
    async close() {
      isClosed = true;
      stopListening();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
