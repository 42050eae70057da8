import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * At most `max` points per key in `windowSeconds`, the window starting at the key's first point.
 * `name` keeps each rule's keys apart in the store; one name, one rule.
 */
export type LimitRule = { name: string; max: number; windowSeconds: number };

/** A key after consuming: `count` includes this point; `retryAfterSeconds` is when its window or block ends. */
export type LimitState = { isAllowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counters for the identity rate limits (sign-in attempts, e-mails per address) on
 * rate-limiter-flexible (decision 0010): in memory for one process, in Redis when several server
 * processes share the load. Services depend on this type, not on the library.
 */
export type RateLimiter = {
  /**
   * Counts one point and says whether the key is still within the rule, in one atomic step: there
   * is no separate check, so parallel requests cannot all pass it before any of them is counted.
   */
  consume: (key: string, rule: LimitRule) => Promise<LimitState>;
  /** Gives back a point counted for an attempt that turned out not to count. */
  refund: (key: string, rule: LimitRule) => Promise<void>;
  /** Refuses the key for `seconds` from now, whatever its count. */
  block: (key: string, rule: LimitRule, seconds: number) => Promise<void>;
  /** Forgets the key. */
  reset: (key: string, rule: LimitRule) => Promise<void>;
};

/** In Redis when a client is given (keys under `prefix`), else in this process's memory. */
export function createRateLimiter({ redis = null, prefix = 'patientsim:rl' }: { redis?: Redis | null; prefix?: string } = {}) {
  const limiters = new Map<string, { rule: LimitRule; limiter: RateLimiterAbstract }>();
  const limiterFor = (rule: LimitRule) => {
    const known = limiters.get(rule.name);
    if (known) {
      if (known.rule.max !== rule.max || known.rule.windowSeconds !== rule.windowSeconds) {
        throw new Error(`Rate limit "${rule.name}" is defined twice with different numbers`);
      }
      return known.limiter;
    }
    const options = { keyPrefix: `${prefix}:${rule.name}`, points: rule.max, duration: rule.windowSeconds };
    // ioredis is the library's default Redis client: no client option needed.
    const limiter = redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options);
    limiters.set(rule.name, { rule, limiter });
    return limiter;
  };
  const stateOf = (result: RateLimiterRes, isAllowed: boolean): LimitState => ({
    isAllowed,
    count: result.consumedPoints,
    retryAfterSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  });

  const limiter: RateLimiter = {
    async consume(key, rule) {
      try {
        return stateOf(await limiterFor(rule).consume(key), true);
      } catch (refusal) {
        // A refusal comes as the library's result; anything else is a failing store.
        if (refusal instanceof RateLimiterRes) return stateOf(refusal, false);
        throw refusal;
      }
    },
    async refund(key, rule) {
      await limiterFor(rule).reward(key);
    },
    async block(key, rule, seconds) {
      await limiterFor(rule).block(key, seconds);
    },
    async reset(key, rule) {
      await limiterFor(rule).delete(key);
    },
  };
  return limiter;
}
