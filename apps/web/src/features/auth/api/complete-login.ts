import type { TokenResponse } from '@patientsim/domain/identity/token.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RUNS_ONCE } from '../../../lib/query-client';
import { z } from 'zod';
import { licensePath, paths, twoFactorSetupPath } from '../../../config/paths';
import { isApiError } from '../../../lib/api-client';
import { topLevelGroups } from '../../../lib/current-user';
import { requestIdToken, storeGroups, storeLoginResult } from '../../../lib/id-token';
import { toRouterPath, toSameOriginPath } from '../../../lib/safe-path';
import { getUserGroups } from '../../../lib/user-groups';
import { continueAuthorization } from './continue-authorization';

export const GROUPS_LOAD_ERROR_MESSAGE = 'Error during authentication. No response from server';
/** Spec section 8: the callback found nothing to complete (no session behind it). */
export const NO_HASH_MESSAGE = 'No authentication hash to parse';

/** Where the callback goes next: a route of this app, or a page served outside it. */
export type LoginDestination = { kind: 'route'; to: string } | { kind: 'document'; href: string };

const LicenseDetailsSchema = z.object({ licenseToken: z.string().min(1) });

export type CompleteLoginParams = {
  /** The redirectUrl query of the callback. */
  redirectUrl: string | null;
  /** The callback's own full path with its query: where the license screen returns to. */
  callbackPath: string;
  origin: string;
  /** Another application's signed authorization request, continued once signed in (decision 0065). */
  oauthQuery?: string | null;
};

/**
 * The callback (spec section 2): obtain the ID token through the session cookie, store the
 * login result, fetch and store the user's groups, then pick the next screen. A license still to
 * accept, or a second factor still to set up, comes first and returns here.
 */
export async function completeLogin({
  redirectUrl,
  callbackPath,
  origin,
  oauthQuery = null,
}: CompleteLoginParams): Promise<LoginDestination> {
  let token: TokenResponse;
  try {
    token = await requestIdToken();
  } catch (error) {
    const license =
      isApiError(error) && error.code === 'LICENSE_NOT_ACCEPTED' ? LicenseDetailsSchema.safeParse(error.details) : null;
    if (license?.success) return { kind: 'route', to: licensePath(license.data.licenseToken, callbackPath) };
    // An organisation requires a second factor the person has not set up (decision 0066): no ID
    // token until they do; the set-up comes back here.
    if (isApiError(error) && error.code === 'TWO_FACTOR_ENROLMENT_REQUIRED') {
      return { kind: 'route', to: twoFactorSetupPath(callbackPath) };
    }
    if (isApiError(error) && error.code === 'UNAUTHENTICATED') throw new Error(NO_HASH_MESSAGE, { cause: error });
    throw error;
  }

  const payload = token.idTokenPayload;
  storeLoginResult({ idToken: token.idToken, idTokenPayload: payload }, []);

  let groups: Awaited<ReturnType<typeof getUserGroups>>;
  try {
    groups = await getUserGroups({ userId: payload.sub, idToken: token.idToken });
  } catch {
    throw new Error(GROUPS_LOAD_ERROR_MESSAGE);
  }
  storeGroups(groups, payload);

  // Another application asked for this sign-in: back to it, with its authorization code.
  if (oauthQuery) return { kind: 'document', href: (await continueAuthorization(oauthQuery)).url };

  const redirectPath = toSameOriginPath(redirectUrl, origin);
  if (redirectPath) {
    const routerPath = toRouterPath(redirectPath);
    return routerPath ? { kind: 'route', to: routerPath } : { kind: 'document', href: redirectPath };
  }
  if (topLevelGroups(groups).length > 1) return { kind: 'route', to: paths.orgSelection };
  return { kind: 'route', to: paths.verifyEmail };
}

export const completeLoginQueryOptions = (params: CompleteLoginParams) =>
  queryOptions({
    queryKey: ['auth', 'complete-login', params],
    queryFn: () => completeLogin(params),
    // Runs once per visit of the callback: never cached, never retried or refetched.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: RUNS_ONCE,
  });

export function useCompleteLogin(params: CompleteLoginParams, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...completeLoginQueryOptions(params), enabled: isEnabled });
}

/**
 * An identity provider reports a failed sign-in in the callback's fragment
 * (`#error=…&error_description=…`): the description to show, else the error, else null.
 */
export function readCallbackError(hash: string): string | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const error = fragment.get('error');
  if (error === null) return null;
  return fragment.get('error_description') || error;
}
