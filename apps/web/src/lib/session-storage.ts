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

/** The ID token of the stored login result, read without validating the rest. */
function storedIdToken(): string | null {
  const raw = getStorage()?.getItem(STORAGE_KEYS.result) ?? null;
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    const idToken = (parsed as { idToken?: unknown } | null)?.idToken;
    return typeof idToken === 'string' ? idToken : null;
  } catch {
    return null;
  }
}

/**
 * Logout's local part for a session that ended on the server, when `idToken` is still the stored
 * one. A request answered late for a token this tab has since replaced (a View-As-User session
 * ended while its screen was still loading) leaves the newer session alone.
 */
export function clearStoredSessionOf(idToken: string): void {
  if (storedIdToken() === idToken) clearStoredSession();
}
