import type { Redis } from 'ioredis';

export type LimitRule = { max: number; windowMs: number };
export type LimitState = { count: number; retryAfterSeconds: number };

/**
 * Fixed-window counters for the identity rate limits (failed sign-ins, e-mails per address).
 * In memory for one process; in Redis when several server processes share the load.
 */
export type RateLimiter = {
  /** Counts one hit and returns the state after it. */
  hit: (key: string, rule: LimitRule) => Promise<LimitState>;
  /** The state without counting. */
  peek: (key: string, rule: LimitRule) => Promise<LimitState>;
  reset: (key: string) => Promise<void>;
};

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return entry;
  };
  const state = (entry: { count: number; resetAt: number } | undefined): LimitState => ({
    count: entry?.count ?? 0,
    retryAfterSeconds: entry ? Math.max(1, Math.ceil((entry.resetAt - now()) / 1000)) : 0,
  });
  return {
    async hit(key, rule) {
      let entry = current(key);
      if (!entry) {
        if (windows.size > 100_000) windows.clear(); // bounded memory under a flood of distinct keys
        entry = { count: 0, resetAt: now() + rule.windowMs };
        windows.set(key, entry);
      }
      entry.count += 1;
      return state(entry);
    },
    async peek(key) {
      return state(current(key));
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

export function createRedisRateLimiter(redis: Redis, prefix = 'patientsim:rl:'): RateLimiter {
  const read = async (key: string): Promise<LimitState> => {
    const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
    return { count: Number(count ?? 0), retryAfterSeconds: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
  };
  return {
    async hit(key, rule) {
      const results = await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, rule.windowMs, 'NX')
        .pttl(prefix + key)
        .exec();
      const count = Number(results?.[0]?.[1] ?? 1);
      const ttl = Number(results?.[2]?.[1] ?? rule.windowMs);
      return { count, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    peek: (key) => read(key),
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}
