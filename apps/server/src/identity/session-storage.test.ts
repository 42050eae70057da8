import { describe, expect, it } from 'vitest';
import { createMemorySessionStorage } from './session-storage.js';

describe('in-memory session storage', () => {
  it('returns what was stored until its time to live runs out', async () => {
    let now = 1_000_000;
    const storage = createMemorySessionStorage(() => now);
    await storage.set('token-a', '{"session":{}}', 60);
    await storage.set('forever', 'x');
    expect(await storage.get('token-a')).toBe('{"session":{}}');
    now += 60_000;
    expect(await storage.get('token-a')).toBeNull();
    expect(await storage.get('forever')).toBe('x');
  });

  it('counts with increment inside the first window', async () => {
    let now = 0;
    const storage = createMemorySessionStorage(() => now);
    expect(await storage.increment('attempts', 10)).toBe(1);
    now += 5_000;
    expect(await storage.increment('attempts', 10)).toBe(2);
    now += 5_000;
    expect(await storage.increment('attempts', 10)).toBe(1);
  });

  it('holds at most maxChars of keys and values: the next entry that would not fit forgets everything', async () => {
    const storage = createMemorySessionStorage(Date.now, { maxChars: 1_000 });
    const session = (n: number) => `{"session":{"id":"${n}"},"user":{"name":"${'x'.repeat(60)}"}}`;
    const tokens = Array.from({ length: 40 }, (_, n) => `token-${String(n).padStart(3, '0')}`);
    for (const [n, token] of tokens.entries()) await storage.set(token, session(n), 3600);

    const kept: string[] = [];
    for (const token of tokens) if ((await storage.get(token)) !== null) kept.push(token);
    const size = kept.reduce((sum, token) => sum + token.length + session(0).length, 0);
    expect(size).toBeLessThanOrEqual(1_000);
    // The newest entries are remembered, contiguous up to the last one; the older ones are not.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(tokens.length);
    expect(kept).toEqual(tokens.slice(-kept.length));
  });

  it("forgets a user's session list together with their sessions, so a revocation never misses one still remembered", async () => {
    const storage = createMemorySessionStorage(Date.now, { maxChars: 400 });
    await storage.set('active-sessions-u1', JSON.stringify([{ token: 'old', expiresAt: Date.now() + 3_600_000 }]), 3600);
    await storage.set('old', `{"session":{"token":"old"},"user":{"id":"u1"}}`, 3600);
    // Other people's sign-ins fill the storage until it starts over.
    for (let n = 0; (await storage.get('active-sessions-u1')) !== null; n += 1) {
      expect(n).toBeLessThan(100);
      await storage.set(`other-${n}`, `{"session":{"token":"other-${n}"},"user":{"id":"u2"}}`, 3600);
    }
    expect(await storage.get('old')).toBeNull();
  });

  it('counts a replaced or deleted entry only once', async () => {
    const storage = createMemorySessionStorage(Date.now, { maxChars: 100 });
    for (let round = 0; round < 50; round += 1) {
      await storage.set('list', 'y'.repeat(40), 60);
      await storage.set('kept', 'z'.repeat(40), 60);
      await storage.set('gone', 'w', 60);
      await storage.delete('gone');
    }
    // 4 + 40 + 4 + 40 characters fit in 100: replacing them over and over never overflows.
    expect(await storage.get('list')).toBe('y'.repeat(40));
    expect(await storage.get('kept')).toBe('z'.repeat(40));
    expect(await storage.getAndDelete('kept')).toBe('z'.repeat(40));
    expect(await storage.get('kept')).toBeNull();
  });
});
