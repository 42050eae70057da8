import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { apiFetch } from './api-client';
import { clearStoredSession } from './session-store';

/** Ends the server session (clears the session cookie). */
export function signOut(): Promise<unknown> {
  return apiFetch('/api/users/auth/sign-out', { method: 'POST', schema: OkSchema });
}

export type LogoutOptions = {
  /** False when another tab already signed out and only this tab must follow. */
  endServerSession?: boolean;
};

/**
 * Logout (spec section 4): clears the stored session, product type, group data and popup
 * preference, ends the server session, drops cached data and goes to login. Clearing storage
 * first is what makes the other tabs follow on their next session poll.
 */
export function useLogout(): (options?: LogoutOptions) => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async ({ endServerSession = true }: LogoutOptions = {}) => {
      clearStoredSession();
      if (endServerSession) {
        // Signing out locally must succeed even when the server cannot be reached.
        await signOut().catch(() => undefined);
      }
      queryClient.clear();
      await navigate(paths.login, { replace: true });
    },
    [navigate, queryClient],
  );
}
