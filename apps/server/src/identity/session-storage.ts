import type { BetterAuthOptions } from 'better-auth';
import type { Redis } from 'ioredis';

export type SessionStorage = NonNullable<BetterAuthOptions['secondaryStorage']>;

/**
 * Where better-auth looks sessions up before the database: Redis when several server processes
 * share the load, process memory for the embedded database (one process per data directory).
 * Sessions are still stored in the database, so a restart keeps everyone signed in.
 */
export function createMemorySessionStorage(now: () => number = Date.now): SessionStorage {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const read = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return null;
    }
    return entry.value;
  };
  return {
    get: (key) => read(key),
    getAndDelete: (key) => {
      const value = read(key);
      entries.delete(key);
      return value;
    },
    increment: (key, ttl) => {
      const next = Number(read(key) ?? 0) + 1;
      const expiresAt = entries.get(key)?.expiresAt ?? now() + ttl * 1000;
      entries.set(key, { value: String(next), expiresAt });
      return next;
    },
    set: (key, value, ttl) => {
      if (entries.size > 100_000) entries.clear();
      entries.set(key, { value, expiresAt: ttl ? now() + ttl * 1000 : Number.POSITIVE_INFINITY });
    },
    delete: (key) => {
      entries.delete(key);
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
