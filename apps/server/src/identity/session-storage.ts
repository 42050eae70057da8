import type { BetterAuthOptions } from 'better-auth';
import type { Redis } from 'ioredis';

export type SessionStorage = NonNullable<BetterAuthOptions['secondaryStorage']>;

/**
 * Where better-auth looks sessions up before the database when several server processes share the
 * load: Redis, which they all read. Sessions are still stored in the database, so a restart keeps
 * everyone signed in. One process on its own reads them from the database (decision 0060).
 */
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
