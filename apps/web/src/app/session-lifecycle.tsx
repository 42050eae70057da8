import { ACTIVITY_THROTTLE_MS, SESSION_POLL_MS, STUDENT_SESSION_SECONDS } from '@patientsim/domain/common/constants';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useRevalidator } from 'react-router';
import { paths, twoFactorSetupPath } from '../config/paths';
import { isApiError } from '../lib/api-client';
import { isLocalhost } from '../lib/browser';
import { PERMISSIONS_CHANGED_EVENT, renewSession } from '../lib/id-token';
import { useLogout } from '../lib/logout';
import { invalidateAllData } from '../lib/query-client';
import { readLoginResult } from '../lib/session-store';
import { renewalTimeMs, startInactivityTimer, startSessionPoll, startTimerAt } from '../lib/session-timers';
import { useSession } from '../lib/use-session';
import { VIEW_END_LEAD_MS, endViewAs } from '../lib/view-as-session';
import { isViewAsResult } from '../lib/current-user';

/**
 * The timers of a signed-in tab (spec section 4, decision 2): the 3-second poll that follows a
 * logout made in another tab, renewal before the token expires (a failed renewal logs out,
 * except on localhost; one refused for a second factor to set up goes to its set-up), the end of a View-As-User session at expiry, and the inactivity logout
 * of a session that does not last (students). When a renewal changed what the user may see, the page follows without a
 * reload: route guards run again and cached data is fetched again (menus re-read the session
 * store on their own). Renders nothing.
 */
export function SessionLifecycle() {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const { revalidate } = useRevalidator();
  // Where a renewal refused for a second factor comes back to, read when it happens.
  const location = useLocation();
  const here = useRef('');
  useEffect(() => {
    here.current = `${location.pathname}${location.search}`;
  }, [location]);
  const { result } = useSession();
  const exp = result?.idTokenPayload.exp ?? null;
  // Without a lasting session (students), inactivity logs out.
  const hasInactivityLogout = result !== null && !hasPermission(result.idTokenPayload.role, 'session:lasting');
  const isImpersonated = isViewAsResult(result);
  const idToken = result?.idToken ?? null;

  useEffect(
    () =>
      startSessionPoll({
        intervalMs: SESSION_POLL_MS,
        isSignedIn: () => readLoginResult() !== null,
        onSignedOut: () => void logout({ endServerSession: false }),
      }),
    [logout],
  );

  useEffect(() => {
    if (exp === null) return undefined;
    if (isImpersonated) {
      // A View-As-User session ends with its token: the end is recorded while the token still works.
      const stopEnd = startTimerAt(exp * 1000 - VIEW_END_LEAD_MS, () => {
        if (idToken) void endViewAs(idToken, { expired: true }).catch(() => undefined);
      });
      const stopLogout = startTimerAt(exp * 1000, () => void logout());
      return () => {
        stopEnd();
        stopLogout();
      };
    }
    return startTimerAt(renewalTimeMs(exp), () => {
      renewSession().catch((error: unknown) => {
        // An organisation came to require a second factor (decision 0066): set one up with the
        // session the server keeps, then the callback renews and comes back to this page.
        if (isApiError(error) && error.code === 'TWO_FACTOR_ENROLMENT_REQUIRED') {
          const callback = `${paths.callback}?${new URLSearchParams({ redirectUrl: here.current }).toString()}`;
          void logout({ endServerSession: false, to: twoFactorSetupPath(callback) });
          return;
        }
        if (!isLocalhost()) void logout();
      });
    });
  }, [exp, idToken, isImpersonated, logout]);

  useEffect(() => {
    const onPermissionsChanged = () => {
      void invalidateAllData(queryClient);
      void revalidate();
    };
    window.addEventListener(PERMISSIONS_CHANGED_EVENT, onPermissionsChanged);
    return () => window.removeEventListener(PERMISSIONS_CHANGED_EVENT, onPermissionsChanged);
  }, [queryClient, revalidate]);

  useEffect(() => {
    if (!hasInactivityLogout) return undefined;
    return startInactivityTimer({
      timeoutMs: STUDENT_SESSION_SECONDS * 1000,
      throttleMs: ACTIVITY_THROTTLE_MS,
      onExpire: () => void logout(),
    });
  }, [hasInactivityLogout, logout]);

  return null;
}
