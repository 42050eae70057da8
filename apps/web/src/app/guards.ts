import type { LoginResult } from '@patientsim/domain/identity/token.schemas';
import { hasPermission } from '@patientsim/domain/roles/permissions';
import type { Role } from '@patientsim/domain/roles/roles';
import { type LoaderFunctionArgs, redirect, redirectDocument } from 'react-router';
import { externalPaths, paths } from '../config/paths';
import { checkAuthoringAccess } from '../lib/authoring-guard';
import { deriveCurrentUser, isViewAsResult } from '../lib/current-user';
import { renewSession } from '../lib/id-token';
import { signOut } from '../lib/logout';
import { type SessionSnapshot, clearStoredSession, getSessionSnapshot, isLoginResultUsable } from '../lib/session-store';
import { AREA_ACCESS, type RouteAccess } from './route-access';

export { AREA_ACCESS, type RouteAccess } from './route-access';

export type AccessDecision = { isAllowed: true } | { isAllowed: false; redirectTo: string };

function loginRedirect(requestedPath: string): string {
  return `${paths.login}?${new URLSearchParams({ redirectUrl: requestedPath }).toString()}`;
}

/**
 * The navigation guard (spec section 2): unauthenticated users go to login (with a redirect
 * back), users whose address is not verified to the verify screen (the server refuses them all but
 * their own account), users whose role lacks the route's permission go to profile.
 */
export function decideAccess(options: {
  access: RouteAccess;
  session: SessionSnapshot;
  /** Full path of the requested page (with base, query and hash). */
  requestedPath: string;
  nowMs: number;
}): AccessDecision {
  const { access, session, requestedPath, nowMs } = options;
  if (access === 'public') return { isAllowed: true };
  if (!session.result || !isLoginResultUsable(session.result, nowMs)) {
    return { isAllowed: false, redirectTo: loginRedirect(requestedPath) };
  }
  if (access === 'unverified') return { isAllowed: true };
  if (!session.result.idTokenPayload.email_verified) return { isAllowed: false, redirectTo: paths.verifyEmail };
  if (access === 'signed-in') return { isAllowed: true };
  const { role } = deriveCurrentUser(session.result, session.groups);
  return hasPermission(role, access) ? { isAllowed: true } : { isAllowed: false, redirectTo: paths.profile };
}

/** Whether an unusable stored token may be renewed silently: a lasting session's (not a student's), not a View-As-User one. */
function isRenewable(result: LoginResult): boolean {
  return hasPermission(result.idTokenPayload.role, 'session:lasting') && !isViewAsResult(result);
}

/**
 * The stored session brought up to date before a guarded route loads: an expired token is renewed
 * through the session cookie when allowed, otherwise it is discarded (decision 2).
 */
async function currentSession(nowMs: number): Promise<SessionSnapshot> {
  const session = getSessionSnapshot();
  if (!session.result || isLoginResultUsable(session.result, nowMs)) return session;
  if (isRenewable(session.result)) {
    try {
      await renewSession();
      return getSessionSnapshot();
    } catch {
      // A failed renewal logs out.
    }
  }
  // Logout: a student's token too old to use, an ended View-As-User session, a failed renewal.
  clearStoredSession();
  await signOut().catch(() => undefined);
  return getSessionSnapshot();
}

let pendingRefresh: Promise<SessionSnapshot> | null = null;

/** Parent and child route loaders run together: they share one refresh (one renewal, one logout). */
function refreshOnce(nowMs: number): Promise<SessionSnapshot> {
  pendingRefresh ??= currentSession(nowMs).finally(() => {
    pendingRefresh = null;
  });
  return pendingRefresh;
}

function requestedPathOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The route loader enforcing `access`: null when allowed, else the redirect to follow. */
export function guard(access: RouteAccess) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    if (access === 'public') return null;
    const nowMs = Date.now();
    const session = await refreshOnce(nowMs);
    const decision = decideAccess({ access, session, requestedPath: requestedPathOf(request), nowMs });
    return decision.isAllowed ? null : redirect(decision.redirectTo);
  };
}

/**
 * The authoring paths (spec section 2): a valid, unexpired stored login result (renewed first
 * when it may be), else login with an updated timestamp query and a redirect back; an unverified
 * address goes to the verify screen; then the route's permission as everywhere else.
 */
export async function authoringLoader(args: LoaderFunctionArgs): Promise<Response | null> {
  const nowMs = Date.now();
  const session = await refreshOnce(nowMs);
  const requestedPath = requestedPathOf(args.request);
  const authoring = checkAuthoringAccess({ result: session.result, currentPath: requestedPath, nowMs });
  if (!authoring.isAllowed) return redirect(authoring.redirectTo);
  const decision = decideAccess({ access: 'cases:read', session, requestedPath, nowMs });
  return decision.isAllowed ? null : redirect(decision.redirectTo);
}

/** Verify screen (route name verifyEmail): a verified user goes on to the scenarios (spec section 2). */
export async function verifyEmailLoader(args: LoaderFunctionArgs): Promise<Response | null> {
  const denied = await guard('unverified')(args);
  if (denied) return denied;
  const { result } = getSessionSnapshot();
  if (result?.idTokenPayload.email_verified) {
    return redirectDocument(new URL(externalPaths.scenarios, new URL(args.request.url).origin).href);
  }
  return null;
}

/**
 * The org management entry (spec section 2): key owner → org profile, admin (who may invite,
 * spec section 6) → invite, else groups.
 */
export function orgManagementPath(user: { isKeyOwner: boolean; role: Role }): string {
  if (user.isKeyOwner) return paths.orgProfile;
  if (hasPermission(user.role, 'org:invite')) return paths.orgInvite;
  return paths.orgGroups;
}

/** /org itself goes to the org management entry of the user. */
export async function orgIndexLoader(args: LoaderFunctionArgs): Promise<Response> {
  const denied = await guard(AREA_ACCESS.org)(args);
  if (denied) return denied;
  const { result, groups } = getSessionSnapshot();
  return redirect(result ? orgManagementPath(deriveCurrentUser(result, groups)) : paths.login);
}

/** Org profile is for the key owner; others are sent to the invite-users route (spec section 2). */
export async function orgProfileLoader(args: LoaderFunctionArgs): Promise<Response | null> {
  const denied = await guard(AREA_ACCESS.org)(args);
  if (denied) return denied;
  const { result, groups } = getSessionSnapshot();
  return result && deriveCurrentUser(result, groups).isKeyOwner ? null : redirect(paths.orgInvite);
}
