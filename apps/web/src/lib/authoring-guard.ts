import type { LoginResult } from '@patientsim/domain/identity/token.schemas';
import { paths } from '../config/paths';
import { isLoginResultUsable } from './session-store';

/**
 * The guard of the authoring paths (spec section 2): they need a valid, unexpired stored login
 * result, else the browser goes to login with an updated timestamp query and a redirect back;
 * an unverified e-mail goes to the verify screen. The scenario library's route loader runs it.
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
    return { isAllowed: false, redirectTo: `${paths.login}?${query.toString()}` };
  }
  if (!result.idTokenPayload.email_verified) {
    return { isAllowed: false, redirectTo: paths.verifyEmail };
  }
  return { isAllowed: true, result };
}
