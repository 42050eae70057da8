/**
 * A tiny read-through cache for the hot identity reads (a user's claims and groups). Entries live
 * `ttlMs` at most, and every write in this process that can change them clears the cache, so a
 * process sees its own writes at once and other processes within `ttlMs`.
 */
export type ReadCache = {
  get: <T>(key: string, load: () => Promise<T>) => Promise<T>;
  /** Forget everything: call after any write to users, groups or memberships. */
  clear: () => void;
};

export function createReadCache({
  ttlMs,
  max = 10_000,
  now = Date.now,
}: {
  ttlMs: number;
  max?: number;
  now?: () => number;
}): ReadCache {
  let generation = 0;
  const entries = new Map<string, { value: Promise<unknown>; expiresAt: number; generation: number }>();
  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now() && hit.generation === generation) return hit.value as Promise<T>;
      if (entries.size >= max) entries.clear();
      const loadedIn = generation;
      const value = load();
      entries.set(key, { value, expiresAt: now() + ttlMs, generation: loadedIn });
      // A failed load is not kept.
      value.catch(() => entries.delete(key));
      return value;
    },
    clear() {
      generation += 1;
      entries.clear();
    },
  };
}
