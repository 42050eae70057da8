import type { LoginResult } from '@patientsim/domain/identity/token.schemas';
import { appUrl, paths } from '../config/paths';
import { replaceLocation } from './browser';
import { isLoginResultUsable, readLoginResult } from './session-store';

/**
 * The guard of the authoring paths (spec section 2): they need a valid, unexpired stored login
 * result, else the browser goes to login with an updated timestamp query and a redirect back;
 * an unverified e-mail goes to the verify screen. Free of any UI framework so plain pages can use it.
 */

export type AuthoringAccess = { isAllowed: true; result: LoginResult } | { isAllowed: false; redirectTo: string };

export function checkAuthoringAccess(options: {
  result: LoginResult | null;
  /** The page being guarded: path, query and hash. */
  currentPath: string;
  nowMs: number;
}): AuthoringAccess {
  const { result, currentPath, nowMs } = options;
  if (!result || !isLoginResultUsable(result, nowMs)) {
    const query = new URLSearchParams({ t: String(nowMs), redirectUrl: currentPath });
    return { isAllowed: false, redirectTo: `${appUrl(paths.login)}?${query.toString()}` };
  }
  if (!result.idTokenPayload.email_verified) {
    return { isAllowed: false, redirectTo: appUrl(paths.verifyEmail) };
  }
  return { isAllowed: true, result };
}

/** Runs the guard on the current page; redirects and returns null when access is refused. */
export function enforceAuthoringGuard(): LoginResult | null {
  const { pathname, search, hash } = window.location;
  const access = checkAuthoringAccess({
    result: readLoginResult(),
    currentPath: `${pathname}${search}${hash}`,
    nowMs: Date.now(),
  });
  if (!access.isAllowed) {
    replaceLocation(access.redirectTo);
    return null;
  }
  return access.result;
}
