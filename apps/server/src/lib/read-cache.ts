import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A tiny read-through cache for the hot identity reads (a user's claims and groups). Entries live
 * `ttlMs` at most, and every write in this process that can change them clears the cache, so a
 * process sees its own writes at once and other processes within `ttlMs`.
 */
export type ReadCache = {
  get: <T>(key: string, load: () => Promise<T>) => Promise<T>;
  /** Forget everything, here and in every other process: call after any write to users, groups or memberships. */
  clear: () => void;
  /** Forget everything in this process only (another process announced a write). */
  clearLocal: () => void;
};

export function createReadCache({
  ttlMs,
  max = 10_000,
  now = Date.now,
  onClear,
}: {
  ttlMs: number;
  max?: number;
  now?: () => number;
  /** Called after every `clear` (to tell other processes). */
  onClear?: (() => void) | undefined;
}): ReadCache {
  let generation = 0;
  const entries = new Map<string, { value: Promise<unknown>; expiresAt: number; generation: number }>();
  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now() && hit.generation === generation) return hit.value as Promise<T>;
      if (entries.size >= max) entries.clear();
      const loadedIn = generation;
      const value = load();
      entries.set(key, { value, expiresAt: now() + ttlMs, generation: loadedIn });
      // A failed load is not kept.
      value.catch(() => entries.delete(key));
      return value;
    },
    clear() {
      this.clearLocal();
      onClear?.();
    },
    clearLocal() {
      generation += 1;
      entries.clear();
    },
  };
}

const INVALIDATION_CHANNEL = 'patientsim:cache-clear';

/**
 * Several processes behind a load balancer: every `clear` is published through Redis, and every
 * other process clears its own cache when it hears it, so a sign-out, a reset password, a removed
 * member or a changed role is seen everywhere within a network round trip, not after `ttlMs`.
 * Returns the cache (publishing) and a close function for the subscriber connection.
 */
export async function createSharedReadCache({ ttlMs, redis }: { ttlMs: number; redis: Redis }) {
  const instance = randomUUID();
  const cache = createReadCache({
    ttlMs,
    onClear: () => {
      redis.publish(INVALIDATION_CHANNEL, instance).catch(() => {
        // Redis down: other processes fall back to the ttl.
      });
    },
  });
  const subscriber = redis.duplicate();
  subscriber.on('message', (_channel: string, from: string) => {
    if (from !== instance) cache.clearLocal();
  });
  await subscriber.subscribe(INVALIDATION_CHANNEL);
  return { cache, close: async () => void (await subscriber.quit()) };
}
