import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRateLimiter, type LimitRule, type RateLimiter } from './rate-limiter.js';
import { requireRedis, TEST_REDIS_URL } from '../../test/redis.js';

const REDIS_URL = TEST_REDIS_URL;

await requireRedis();

const rule: LimitRule = { name: 'test', max: 5, windowSeconds: 60 };
let nextKey = 0;
const freshKey = () => `key-${(nextKey += 1)}`;

for (const store of ['memory', 'redis'] as const) {
  describe(`rate limiter (${store})`, () => {
    // Redis keys go under a prefix of this run's own, removed afterwards.
    const prefix = `patientsim-test:${randomBytes(6).toString('hex')}`;
    const redis = store === 'redis' ? new Redis(REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
    const limiter: RateLimiter = createRateLimiter({ redis, prefix });
    afterAll(async () => {
      if (!redis) return;
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    it('lets exactly `max` of many parallel consumes through', async () => {
      const key = freshKey();
      const states = await Promise.all(Array.from({ length: 20 }, () => limiter.consume(key, rule)));
      expect(states.filter((state) => state.isAllowed)).toHaveLength(5);
      expect(states.map((state) => state.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      for (const state of states) {
        expect(state.retryAfterSeconds).toBeGreaterThan(0);
        expect(state.retryAfterSeconds).toBeLessThanOrEqual(60);
      }
    });

    it('takes a refunded point back, and forgets a reset key', async () => {
      const key = freshKey();
      for (let i = 0; i < 5; i += 1) await limiter.consume(key, rule);
      await limiter.refund(key, rule);
      expect((await limiter.consume(key, rule)).isAllowed).toBe(true);
      expect((await limiter.consume(key, rule)).isAllowed).toBe(false);
      await limiter.reset(key, rule);
      expect(await limiter.consume(key, rule)).toMatchObject({ isAllowed: true, count: 1 });
    });

    it('refuses a blocked key until the block ends, whatever its count', async () => {
      const key = freshKey();
      await limiter.consume(key, rule);
      await limiter.block(key, rule, 600);
      const state = await limiter.consume(key, rule);
      expect(state.isAllowed).toBe(false);
      expect(state.count).toBe(rule.max + 2);
      expect(state.retryAfterSeconds).toBeGreaterThan(590);
      expect(state.retryAfterSeconds).toBeLessThanOrEqual(600);
    });

    it('keeps rules apart by name, and refuses one name with two sets of numbers', async () => {
      const key = freshKey();
      const other: LimitRule = { name: 'other', max: 1, windowSeconds: 60 };
      expect((await limiter.consume(key, other)).isAllowed).toBe(true);
      expect((await limiter.consume(key, rule)).count).toBe(1);
      await expect(limiter.consume(key, { ...rule, max: 6 })).rejects.toThrow(/defined twice/);
    });
  });
}
