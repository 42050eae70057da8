import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { apiFetch } from './api-client';
import type { LoginNotice } from './login-notice';
import { clearStoredSession, readLoginResult } from './session-store';
import { isViewAsResult } from './current-user';
import { endViewAs } from './view-as-session';

/** Ends the server session (clears the session cookie). */
export function signOut(): Promise<unknown> {
  return apiFetch('/api/users/auth/sign-out', { method: 'POST', schema: OkSchema });
}

export type LogoutOptions = {
  /** False when another tab already signed out and only this tab must follow. */
  endServerSession?: boolean;
  /** Where to go instead of the plain login page (a login carrying a redirectUrl). */
  to?: string;
  /** A message for the login page to show (why the user was logged out). */
  notice?: string;
};

export { readLoginNotice } from './login-notice';

/** The logout under way, if any: a second one (the session poll noticing the first) joins it. */
let logoutInProgress: Promise<void> | null = null;

/**
 * Logout (spec section 4): clears the stored session, product type, group data and popup
 * preference, ends the server session, drops cached data and goes to login. Clearing storage
 * first is what makes the other tabs follow on their next session poll. While one logout runs,
 * another call joins it rather than starting over (and losing the first one's notice).
 */
export function useLogout(): (options?: LogoutOptions) => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (options: LogoutOptions = {}) => {
      const run = async ({ endServerSession = true, to = paths.login, notice }: LogoutOptions) => {
        const stored = readLoginResult();
        clearStoredSession();
        if (endServerSession) {
          // Signing out locally must succeed even when the server cannot be reached (or the view ended already).
          const isViewLive = stored && isViewAsResult(stored) && stored.idTokenPayload.exp * 1000 > Date.now();
          if (isViewLive) await endViewAs(stored.idToken).catch(() => undefined);
          await signOut().catch(() => undefined);
        }
        queryClient.clear();
        const state: LoginNotice | null = notice ? { notice } : null;
        await navigate(to, { replace: true, state });
      };
      logoutInProgress ??= run(options).finally(() => {
        logoutInProgress = null;
      });
      return logoutInProgress;
    },
    [navigate, queryClient],
  );
}
