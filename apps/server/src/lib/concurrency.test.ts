import { describe, expect, it } from 'vitest';
import { createLimiter } from './concurrency.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createLimiter', () => {
  it('runs at most max tasks at a time and starts the others in arrival order', async () => {
    const limiter = createLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.size).toEqual({ running: 2, waiting: 2 });

    gates[1]!.resolve();
    await results[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);

    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(limiter.size).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the place of a task that fails', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(limiter.size).toEqual({ running: 0, waiting: 0 });
  });

  it('tells how long the oldest waiting task has waited', async () => {
    const limiter = createLimiter(1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    expect(limiter.oldestWaitMs()).toBe(0);
    const second = limiter.run(() => Promise.resolve());
    await Promise.resolve();
    expect(limiter.oldestWaitMs(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    gate.resolve();
    await Promise.all([first, second]);
    expect(limiter.oldestWaitMs()).toBe(0);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => createLimiter(0)).toThrow(RangeError);
    expect(() => createLimiter(1.5)).toThrow(RangeError);
  });
});
