import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { changeIdentity, createReadCache } from './read-cache.js';

describe('read cache', () => {
  it('serves a loaded value until it expires', async () => {
    let clock = 0;
    let loads = 0;
    const cache = createReadCache({ ttlMs: 1000, now: () => clock });
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    clock = 1001;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('forgets everything on clear, including loads that were under way', async () => {
    let loads = 0;
    const cache = createReadCache({ ttlMs: 60_000 });
    const pending = cache.get('k', async () => ++loads);
    cache.clear();
    await pending;
    expect(await cache.get('k', async () => ++loads)).toBe(2);
  });

  it('does not keep failed loads', async () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'up')).toBe('up');
  });

  it('keeps the load that followed a clear when the one before it fails', async () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    let fail: (error: Error) => void = () => {};
    const failing = cache.get('k', () => new Promise<string>((_resolve, reject) => (fail = reject)));
    cache.clear();
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
    fail(new Error('down'));
    await expect(failing).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'loaded again')).toBe('fresh');
  });
});

describe('changeIdentity', () => {
  /** A database whose transactions record when they commit, and a cache that records when it is cleared. */
  function recorded() {
    const events: string[] = [];
    const tx = {} as Database;
    const db = {
      async transaction<T>(work: (transaction: Database) => Promise<T>) {
        const result = await work(tx);
        events.push('commit');
        return result;
      },
    } as unknown as Database;
    const cache = createReadCache({ ttlMs: 60_000 });
    const clear = cache.clear;
    cache.clear = () => {
      events.push('clear');
      clear();
    };
    return { events, tx, ctx: { db, cache } };
  }

  it('clears the cache once the transaction has committed, not before', async () => {
    const { events, tx, ctx } = recorded();
    const answer = await changeIdentity(ctx, async (db) => {
      events.push(db === tx ? 'write in the transaction' : 'write outside it');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(events).toEqual(['write in the transaction', 'commit', 'clear']);
  });

  it('forgets what was read before the write: the next read loads the committed rows', async () => {
    const { ctx } = recorded();
    let role = 'STUDENT';
    const read = () => ctx.cache.get('identity:u1', async () => role);
    expect(await read()).toBe('STUDENT');
    await changeIdentity(ctx, async () => {
      role = 'ADMIN';
    });
    expect(await read()).toBe('ADMIN');
  });

  it('clears nothing when the transaction fails: nothing changed', async () => {
    const { events, ctx } = recorded();
    await expect(
      changeIdentity(ctx, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(events).toEqual([]);
  });
});
