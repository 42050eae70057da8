import type { Database } from '../db/client.js';
import { createLocalInvalidations, type Invalidations } from './invalidation.js';

/** How long an entry lives when no write is announced (ms). */
export const READ_CACHE_TTL_MS = 1000;

/**
 * A tiny read-through cache for the hot identity reads (a user's claims and groups, the session
 * behind a cookie or a token's `sid`). Every write that can change them clears the cache, in this
 * process at once and in every other process through `invalidations` (Redis publish/subscribe),
 * so that a sign-out, a reset password, a removed member or a changed role is refused everywhere
 * within a network round trip. Entries also expire after `ttlMs`, which bounds only what no
 * process announces (a session that slid forward, an edit made outside the product).
 */
export type ReadCache = {
  get: <T>(key: string, load: () => Promise<T>) => Promise<T>;
  /**
   * Forget everything, here and in every other process. Writes to users, groups and memberships
   * call it through `changeIdentity`; the session writers (identity/sessions.ts) after theirs, and
   * so do the callers of better-auth's own calls that end sessions (a password change or reset).
   */
  clear: () => void;
  /** Forget everything in this process only. */
  clearLocal: () => void;
};

export function createReadCache({
  ttlMs,
  max = 10_000,
  now = Date.now,
  invalidations = createLocalInvalidations(),
}: {
  ttlMs: number;
  max?: number;
  now?: () => number;
  /** How other processes hear of this one's writes, and this one of theirs. */
  invalidations?: Invalidations;
}): ReadCache {
  const entries = new Map<string, { value: Promise<unknown>; expiresAt: number }>();
  // A load under way is in `entries` already, so clearing also drops what it may have read before the write.
  const clearLocal = () => entries.clear();
  invalidations.listen('identity', clearLocal);
  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      // While another process's write could go unheard, nothing remembered is trusted.
      if (!invalidations.isListening()) return load();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return hit.value as Promise<T>;
      if (entries.size >= max) entries.clear();
      const value = load();
      entries.set(key, { value, expiresAt: now() + ttlMs });
      // A failed load is not kept.
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    clear() {
      clearLocal();
      invalidations.announce('identity');
    },
    clearLocal,
  };
}

/**
 * The one way to write what the cached reads load (a user's row, their memberships, the groups
 * they are in, who owns an organisation, a View As session): `work` runs as one transaction, and
 * the cache is cleared, here and in every other process, once it has committed. Not before: a read
 * between a clear and the commit would load the old rows and keep them.
 */
export async function changeIdentity<T>(ctx: { db: Database; cache: ReadCache }, work: (tx: Database) => Promise<T>): Promise<T> {
  const result = await ctx.db.transaction(work);
  ctx.cache.clear();
  return result;
}
