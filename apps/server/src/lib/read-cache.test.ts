import { describe, expect, it } from 'vitest';
import { createReadCache } from './read-cache.js';

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
