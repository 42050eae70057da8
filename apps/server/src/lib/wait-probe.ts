import { performance } from 'node:perf_hooks';

/**
 * How long work queued now would wait somewhere, measured with a probe: a trivial task sent through
 * the same queue, one at a time. Each read answers the last probe's time, or the running one's age
 * when that is longer (a probe stuck in the queue says so before it ends), and sends the next probe
 * if none is running.
 */
export function createWaitProbe(send: (done: () => void) => void): (now?: number) => number {
  let startedAt: number | null = null;
  let lastMs = 0;
  return (now = performance.now()) => {
    const waitMs = startedAt === null ? lastMs : Math.max(lastMs, now - startedAt);
    if (startedAt === null) {
      const began = performance.now();
      startedAt = began;
      send(() => {
        lastMs = performance.now() - began;
        startedAt = null;
      });
    }
    return waitMs;
  };
}
