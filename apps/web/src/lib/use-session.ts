import { useSyncExternalStore } from 'react';
import { type CurrentUser, deriveCurrentUser } from './current-user';
import { type SessionSnapshot, getSessionSnapshot, subscribeToSession } from './session-store';

/** The stored session, re-rendering when this tab or another one changes it. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeToSession, getSessionSnapshot);
}

/** The user derived from each snapshot: many components of a page read it, one derives it. */
const derivedUsers = new WeakMap<SessionSnapshot, CurrentUser | null>();

function currentUserOf(session: SessionSnapshot): CurrentUser | null {
  let user = derivedUsers.get(session);
  if (user === undefined) {
    user = session.result ? deriveCurrentUser(session.result, session.groups) : null;
    derivedUsers.set(session, user);
  }
  return user;
}

/** The signed-in user, or null when no login result is stored. */
export function useCurrentUser(): CurrentUser | null {
  return currentUserOf(useSession());
}
