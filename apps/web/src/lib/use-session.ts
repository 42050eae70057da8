import { useMemo, useSyncExternalStore } from 'react';
import { type CurrentUser, deriveCurrentUser } from './current-user';
import { type SessionSnapshot, getSessionSnapshot, subscribeToSession } from './session-store';

/** The stored session, re-rendering when this tab or another one changes it. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeToSession, getSessionSnapshot);
}

/** The signed-in user, or null when no login result is stored. */
export function useCurrentUser(): CurrentUser | null {
  const { result, groups } = useSession();
  return useMemo(() => (result ? deriveCurrentUser(result, groups) : null), [result, groups]);
}
