import type { BetterAuthOptions } from 'better-auth';
import type { Redis } from 'ioredis';

export type SessionStorage = NonNullable<BetterAuthOptions['secondaryStorage']>;

/**
 * Where better-auth looks sessions up before the database: Redis when several server processes
 * share the load, process memory for the embedded database (one process per data directory).
 * Sessions are still stored in the database, so a restart keeps everyone signed in.
 *
 * In memory the entries are bounded by their total length (`maxChars`, about 1,000 characters a
 * session): when the next one would not fit, everything is forgotten at once and lookups go to the
 * database until the sessions in use are read again. All at once, never entry by entry: a user's
 * session list and their sessions leave together, so a revocation cannot miss a session that is
 * still remembered.
 */
export function createMemorySessionStorage(
  now: () => number = Date.now,
  { maxChars = 8_000_000 }: { maxChars?: number } = {},
): SessionStorage {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  let chars = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    chars -= key.length + entry.value.length;
    entries.delete(key);
  };
  const put = (key: string, value: string, expiresAt: number) => {
    remove(key);
    if (chars + key.length + value.length > maxChars) {
      entries.clear();
      chars = 0;
    }
    entries.set(key, { value, expiresAt });
    chars += key.length + value.length;
  };
  const read = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now()) {
      remove(key);
      return null;
    }
    return entry.value;
  };
  return {
    get: (key) => read(key),
    getAndDelete: (key) => {
      const value = read(key);
      remove(key);
      return value;
    },
    increment: (key, ttl) => {
      const next = Number(read(key) ?? 0) + 1;
      put(key, String(next), entries.get(key)?.expiresAt ?? now() + ttl * 1000);
      return next;
    },
    set: (key, value, ttl) => {
      put(key, value, ttl ? now() + ttl * 1000 : Number.POSITIVE_INFINITY);
    },
    delete: (key) => {
      remove(key);
    },
  };
}

export function createRedisSessionStorage(redis: Redis, prefix = 'patientsim:auth:'): SessionStorage {
  return {
    get: (key) => redis.get(prefix + key),
    getAndDelete: (key) => redis.getdel(prefix + key),
    increment: async (key, ttl) => {
      const [[, count]] = (await redis
        .multi()
        .incr(prefix + key)
        .expire(prefix + key, ttl, 'NX')
        .exec()) as [[unknown, number]];
      return count;
    },
    set: async (key, value, ttl) => {
      if (ttl) await redis.set(prefix + key, value, 'EX', ttl);
      else await redis.set(prefix + key, value);
    },
    delete: async (key) => {
      await redis.del(prefix + key);
    },
  };
}
