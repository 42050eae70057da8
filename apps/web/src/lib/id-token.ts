import type { Group } from '@patientsim/domain/groups/group.schemas';
import {
  type IdTokenPayload,
  type LoginResult,
  type TokenResponse,
  TokenResponseSchema,
} from '@patientsim/domain/identity/token.schemas';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { ApiError, apiFetch } from './api-client';
import { resolveActiveOrgId, selectActiveGroups } from './current-user';
import { getUserGroups } from './user-groups';
import { readGroups, readLoginResult, writeGroups, writeLoginResult, writeProductType } from './session-store';

/** Raised on window when a renewal changed what the user may see (spec section 4). */
export const PERMISSIONS_CHANGED_EVENT = 'patientsim:permissions-changed';

/**
 * Obtains an ID token through the session cookie. The same call signs the user in after the
 * callback and renews the token later. Throws ApiError (LICENSE_NOT_ACCEPTED, UNAUTHENTICATED, ...).
 */
export function requestIdToken(): Promise<TokenResponse> {
  return apiFetch('/api/users/auth/token', { method: 'POST', schema: TokenResponseSchema });
}

/**
 * Stores a login result with its product type, and the user's groups with the active ones
 * (by default the groups already stored, re-read for the token's active organisation).
 */
export function storeLoginResult(result: LoginResult, groups: readonly Group[] = readGroups()): void {
  writeLoginResult(result);
  writeProductType(result.idTokenPayload.productType);
  storeGroups(groups, result.idTokenPayload);
}

/** Stores the user's groups and the active ones (the active organisation and its sub-groups). */
export function storeGroups(groups: readonly Group[], payload: IdTokenPayload): void {
  writeGroups(groups, selectActiveGroups(groups, resolveActiveOrgId(payload)));
}

const WATCHED_CLAIMS = [
  'role',
  'groups',
  'permissions',
  'productType',
  'aiActive',
  'email',
  'given_name',
  'family_name',
] as const satisfies readonly (keyof IdTokenPayload)[];

/** True when a renewal changed role, groups, permissions, product type, AI access, e-mail or names. */
export function haveClaimsChanged(previous: IdTokenPayload, next: IdTokenPayload): boolean {
  return WATCHED_CLAIMS.some((claim) => JSON.stringify(previous[claim]) !== JSON.stringify(next[claim]));
}

/** True when the memberships or the active organisation differ: the stored groups are then out of date. */
export function haveMembershipsChanged(previous: IdTokenPayload, next: IdTokenPayload): boolean {
  return JSON.stringify(previous.groups) !== JSON.stringify(next.groups) || previous.org !== next.org;
}

/**
 * The groups to store with a renewed token: the stored ones while the memberships are the same,
 * else fetched again (leaving or joining an organisation). A failed fetch keeps the stored ones:
 * the token itself is still good.
 */
async function groupsFor(previous: LoginResult | null, next: LoginResult): Promise<readonly Group[]> {
  if (previous && !haveMembershipsChanged(previous.idTokenPayload, next.idTokenPayload)) return readGroups();
  try {
    return await getUserGroups({ userId: next.idTokenPayload.sub, idToken: next.idToken });
  } catch {
    return readGroups();
  }
}

/**
 * Renews the ID token through the session cookie, stores it (every later call carries the new
 * bearer) and raises the permissions-changed event when claims changed (spec section 4).
 */
export async function renewSession(): Promise<LoginResult> {
  const previous = readLoginResult();
  const response = await requestIdToken();
  const result: LoginResult = { idToken: response.idToken, idTokenPayload: response.idTokenPayload };
  const groups = await groupsFor(previous, result);
  // A logout (in this tab or another) while the renewal was under way wins: nothing is stored again.
  if (previous && readLoginResult() === null) {
    throw new ApiError({ statusCode: 401, code: 'UNAUTHENTICATED', message: ERROR_CODES.UNAUTHENTICATED.message });
  }
  storeLoginResult(result, groups);
  if (previous && haveClaimsChanged(previous.idTokenPayload, result.idTokenPayload)) {
    window.dispatchEvent(new CustomEvent(PERMISSIONS_CHANGED_EVENT, { detail: result.idTokenPayload }));
  }
  return result;
}
