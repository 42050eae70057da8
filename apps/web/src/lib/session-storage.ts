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
