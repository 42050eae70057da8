import { STORAGE_KEYS } from '@patientsim/domain/common/constants';

/**
 * The browser storage under the session: the raw keys, without parsing them. Kept apart from
 * `session-store.ts` (which validates what it reads with the domain schemas) so that the API
 * client, which only ever clears the session, does not bring the schemas into the first load.
 */

export const SESSION_CHANGED_EVENT = 'patientsim:session-changed';

export function getStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage can be disabled (privacy settings); the app then behaves as signed out.
    return null;
  }
}

export function notifySessionChanged(): void {
  window.dispatchEvent(new Event(SESSION_CHANGED_EVENT));
}

/** Logout's local part: the session, product type, group data and the popup preference (spec section 4). */
export function clearStoredSession(): void {
  const storage = getStorage();
  for (const key of Object.values(STORAGE_KEYS)) storage?.removeItem(key);
  notifySessionChanged();
}

/** A stored value's JSON, or null when there is none or it is not JSON. */
export function parseJson(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * The ID token of the stored login result, read without validating the rest: the bearer the API
 * client sends (the server checks it), without the schemas of `session-store.ts` on each request or
 * in the first load.
 */
export function storedIdToken(): string | null {
  const stored = parseJson(getStorage()?.getItem(STORAGE_KEYS.result) ?? null) as { idToken?: unknown } | null;
  return typeof stored?.idToken === 'string' ? stored.idToken : null;
}

/**
 * Logout's local part for a session that ended on the server, when `idToken` is still the stored
 * one. A request answered late for a token this tab has since replaced (a View-As-User session
 * ended while its screen was still loading) leaves the newer session alone.
 */
export function clearStoredSessionOf(idToken: string): void {
  if (storedIdToken() === idToken) clearStoredSession();
}
