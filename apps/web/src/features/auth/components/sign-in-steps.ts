import { SECOND_FACTOR_METHODS, type SecondFactorMethod } from '@patientsim/domain/auth/two-factor.schemas';
import { paths } from '../../../config/paths';

/**
 * What the sign-in's steps carry from the login page to the callback: a redirectUrl, and another
 * application's signed authorization request (decision 0065).
 */
export type SignInContinuation = { redirectUrl: string | null; oauthQuery: string | null };

/** The callback with what the sign-in carries. */
export function callbackPathOf({ redirectUrl, oauthQuery }: SignInContinuation): string {
  const query = new URLSearchParams({
    ...(redirectUrl ? { redirectUrl } : {}),
    ...(oauthQuery ? { oauthQuery } : {}),
  }).toString();
  return query ? `${paths.callback}?${query}` : paths.callback;
}

/** The login page as it was opened: the authorization request is its whole query. */
export function loginPathOf({ redirectUrl, oauthQuery }: SignInContinuation): string {
  if (oauthQuery) return `${paths.login}?${oauthQuery}`;
  return redirectUrl ? `${paths.login}?${new URLSearchParams({ redirectUrl }).toString()}` : paths.login;
}

/** The sign-in's second step, with the methods the account has and what the sign-in carries. */
export function secondFactorPathOf(methods: readonly SecondFactorMethod[], continuation: SignInContinuation): string {
  const query = new URLSearchParams({
    methods: methods.join(','),
    ...(continuation.redirectUrl ? { redirectUrl: continuation.redirectUrl } : {}),
    ...(continuation.oauthQuery ? { oauthQuery: continuation.oauthQuery } : {}),
  });
  return `${paths.loginTwoFactor}?${query.toString()}`;
}

/** The methods named in the second step's query; an app's code when it names none it knows. */
export function readSecondFactorMethods(value: string | null): SecondFactorMethod[] {
  const methods = (value ?? '')
    .split(',')
    .filter((method): method is SecondFactorMethod => (SECOND_FACTOR_METHODS as readonly string[]).includes(method));
  return methods.length > 0 ? methods : ['totp'];
}
