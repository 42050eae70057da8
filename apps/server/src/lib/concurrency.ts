import { performance } from 'node:perf_hooks';

/**
 * Runs at most `max` tasks at a time; the others wait in arrival order. `oldestWaitMs` tells how
 * long the longest-waiting task has waited, for overload protection to read.
 */
export function createLimiter(max: number) {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`max must be a positive integer, not ${max}`);
  let running = 0;
  const waiting: { since: number; start: () => void }[] = [];

  function next() {
    const first = waiting.shift();
    if (first) first.start();
    else running -= 1;
  }

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < max) running += 1;
      else await new Promise<void>((start) => waiting.push({ since: performance.now(), start }));
      try {
        return await task();
      } finally {
        next();
      }
    },
    /** Tasks running and waiting. */
    get size() {
      return { running, waiting: waiting.length };
    },
    oldestWaitMs(now = performance.now()): number {
      const first = waiting[0];
      return first ? now - first.since : 0;
    },
  };
}
