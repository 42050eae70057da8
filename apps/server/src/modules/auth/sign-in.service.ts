import { APIError } from 'better-auth/api';
import { LICENSE_VERSION } from '@patientsim/domain/common/constants';
import type { SecondFactorBody, SecondFactorMethod } from '@patientsim/domain/auth/two-factor.schemas';
import { endSession, isSessionLive } from '../../identity/sessions.js';
import { type Lockout, refundAttempt, signInAttempt } from '../../identity/sign-in-limits.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { audit } from '../../lib/audit.js';
import { AppError, assert, DEPENDENCY_RETRY_AFTER_SECONDS } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { rateLimited } from '../../lib/limits.js';
import { signInLockedEmail } from '../../mail/templates.js';
import { findPasskeys, hasPasskeysByEmail, secondFactorShortfall, secondFactorStateOf } from '../../identity/second-factor.js';
import * as users from '../users/users.service.js';
import type { AuthCtx } from './auth.context.js';

/** Sign-in and sign-out, ID tokens from the session, the license and the active organisation. */

/** How long a client waits after the two-factor plugin locked the account's codes (its own lock says no time). */
const SECOND_FACTOR_LOCK_SECONDS = 15 * 60;

/**
 * Mails the owner of an account whose sign-in was just locked for a client, or paused for new
 * clients; an address without an account (or a deleted one) gets nothing. In the background, so
 * that the answer's timing says nothing about whether the account exists.
 */
export function notifyLockout(ctx: Pick<AuthCtx, 'db' | 'mailer' | 'env'>, email: string, { seconds, isAccountWide }: Lockout) {
  const send = async () => {
    const owner = await users.findUserByEmail(ctx.db, email);
    if (!owner || owner.deletedAt) return;
    const url = `${ctx.env.PUBLIC_URL}/auth/reset-password`;
    await ctx.mailer.send(signInLockedEmail({ to: owner.email, url, lockedForSeconds: seconds, isAccountWide }));
  };
  void send().catch(() => {});
}

/** The answer of a completed sign-in: the cookies to set, the user, and the license token. */
type SignedIn = {
  cookies: string[];
  user: { id: string; email: string; emailVerified: boolean };
  licenseToken: string | null;
};

/** A right password of an account with a second factor: the two-factor cookie, and what it may use. */
type SecondFactorAsked = { cookies: string[]; secondFactor: { methods: SecondFactorMethod[] } };

/** The answer once better-auth opened a session: its cookies and the device cookie (decision 0039). */
async function signedInAnswer(
  ctx: AuthCtx,
  user: { id: string; email: string; emailVerified: boolean; licenseVersion?: string | null | undefined },
  cookies: string[],
): Promise<SignedIn> {
  return {
    cookies: [...cookies, ctx.deviceCookies.issue(user.email)],
    user: { id: user.id, email: user.email, emailVerified: user.emailVerified },
    // Read from the row the sign-in loaded: the client learns now that the ID token would be refused
    // until the license is accepted (decision 14), and goes to the license screen.
    licenseToken: user.licenseVersion === LICENSE_VERSION ? null : await ctx.licenseTokens.issue(user.id),
  };
}

/** The limits' refusal (429 with its wait in Retry-After) as the product's. */
function retryAfterOf(error: APIError): number {
  const retryAfter = new Headers(error.headers as Record<string, string> | undefined).get('retry-after');
  return Number(retryAfter) || SECOND_FACTOR_LOCK_SECONDS;
}

/**
 * Signs in with e-mail and password through better-auth's sign-in, and returns the cookies to set:
 * the session's, and the device cookie that makes this browser known to the account; with them the
 * license token while the current license is not accepted (null once it is). An account with a
 * second factor (decision 0066) gets no session yet: better-auth's two-factor cookie, and the
 * methods it may finish with. The sign-in limits (identity/sign-in-limits.ts) count the attempt
 * before the password is verified; past a limit the answer is 429 with Retry-After. `headers`
 * carry the client address the routes trust.
 */
export async function signIn({
  ctx,
  email,
  password,
  headers,
}: {
  ctx: AuthCtx;
  email: string;
  password: string;
  headers: Headers;
}): Promise<SignedIn | SecondFactorAsked> {
  try {
    const { headers: answer, response } = await ctx.auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers,
      returnHeaders: true,
    });
    if ('twoFactorRedirect' in response) {
      const methods: SecondFactorMethod[] = [];
      const offered = (response as { twoFactorMethods?: string[] }).twoFactorMethods ?? [];
      if (offered.includes('totp')) methods.push('totp');
      if (await hasPasskeysByEmail(ctx.db, email)) methods.push('passkey');
      return { cookies: answer.getSetCookie(), secondFactor: { methods } };
    }
    return await signedInAnswer(ctx, response.user, answer.getSetCookie());
  } catch (error) {
    if (error instanceof APIError) {
      if (error.statusCode === 429) throw rateLimited(retryAfterOf(error));
      if (error.statusCode < 500) throw new AppError('INVALID_CREDENTIALS');
    } else {
      // The server failed before the answer, the password was not judged: the attempt does not count.
      const attempt = signInAttempt(ctx.deviceCookies, { body: { email }, headers, options: ctx.auth.options });
      if (attempt) await refundAttempt(ctx.limiter, attempt).catch(() => {});
    }
    throw error;
  }
}

/** The plugin's refusals of a second step, as the product's codes. */
function secondStepError(error: unknown, invalid: 'SECOND_FACTOR_INVALID' | 'PASSKEY_INVALID'): unknown {
  if (!(error instanceof APIError)) return error;
  if (error.statusCode === 429) return rateLimited(retryAfterOf(error));
  if (error.statusCode >= 500) return error;
  const code = (error.body as { code?: string } | undefined)?.code;
  // No password's step, or past its 10 minutes or its tries: sign in again.
  if (code === 'INVALID_TWO_FACTOR_COOKIE' || code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')
    return new AppError('SECOND_FACTOR_EXPIRED');
  return new AppError(invalid);
}

/**
 * The second step of a sign-in (decision 0066): a code of the authenticator app or one recovery
 * code, checked by better-auth's two-factor plugin against the two-factor cookie of the password's
 * step. Answers as a password sign-in does. Failed codes count toward the sign-in limits.
 */
export async function verifySecondFactor({ ctx, body, headers }: { ctx: AuthCtx; body: SecondFactorBody; headers: Headers }) {
  try {
    const { headers: answer, response } =
      body.kind === 'totp'
        ? await ctx.auth.api.verifyTOTP({ body: { code: body.code }, headers, returnHeaders: true })
        : await ctx.auth.api.verifyBackupCode({ body: { code: body.code }, headers, returnHeaders: true });
    return await signedInAnswer(ctx, response.user, answer.getSetCookie());
  } catch (error) {
    throw secondStepError(error, 'SECOND_FACTOR_INVALID');
  }
}

/**
 * WebAuthn authentication options for the passkey step of a sign-in: only with the two-factor
 * cookie of a password's step, and offering that person's passkeys. Sets the plugin's challenge
 * cookie.
 */
export async function passkeySignInOptions({ ctx, headers }: { ctx: AuthCtx; headers: Headers }) {
  const pending = await ctx.auth.api.findPendingSignIn({ headers });
  if (!pending) throw new AppError('SECOND_FACTOR_EXPIRED');
  const passkeys = await findPasskeys(ctx.db, pending.userId);
  const { headers: answer, response } = await ctx.auth.api.generatePasskeyAuthenticationOptions({ headers, returnHeaders: true });
  const allowCredentials = passkeys.map((key) => ({
    id: key.credentialID,
    type: 'public-key' as const,
    ...(key.transports ? { transports: key.transports.split(',') } : {}),
  }));
  return { options: { ...response, allowCredentials }, cookies: answer.getSetCookie() };
}

type PasskeyAssertion = NonNullable<Parameters<AuthCtx['auth']['api']['verifyPasskeyAuthentication']>[0]>['body']['response'];

/**
 * The passkey step of a sign-in: better-auth's passkey plugin checks the assertion; the product's
 * rule in its pipeline (identity/second-factor.ts) requires the password's step of the passkey's
 * owner and uses it up. Answers as a password sign-in does.
 */
export async function signInWithPasskey({
  ctx,
  response: assertion,
  headers,
}: {
  ctx: AuthCtx;
  response: Record<string, unknown>;
  headers: Headers;
}) {
  try {
    const { headers: answer, response } = await ctx.auth.api.verifyPasskeyAuthentication({
      // Checked by the plugin (@simplewebauthn/server); the route only knows it is a JSON object.
      body: { response: assertion as unknown as PasskeyAssertion },
      headers,
      returnHeaders: true,
    });
    return await signedInAnswer(ctx, response.user, answer.getSetCookie());
  } catch (error) {
    throw secondStepError(error, 'PASSKEY_INVALID');
  }
}

/**
 * Ends the session behind the cookie and returns the cookies that clear it. The session is ended
 * first, by a call that fails rather than logs: while it cannot be ended (Redis or the database out
 * of reach) the answer is 503 and the cookie stays, never a 200 for a session that lives on.
 */
export async function signOut({ ctx, headers }: { ctx: AuthCtx; headers: Headers }) {
  // A session that cannot be read cannot be ended: the browser keeps its cookie and tries again
  // (the identity library reports a failed read without its cause, and Redis may not know yet that
  // its connection dropped).
  const current = await ctx.auth.api.getSession({ headers, query: { disableRefresh: true } }).catch((error: unknown) => {
    if (error instanceof APIError && error.statusCode >= 500) {
      throw new AppError('SERVICE_UNAVAILABLE', { headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) } });
    }
    throw error;
  });
  if (current) await endSession(ctx, current.session.token);
  try {
    const result = await ctx.auth.api.signOut({ headers, returnHeaders: true });
    return result.headers.getSetCookie();
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return [];
    throw error;
  }
}

/**
 * Mints an ID token for the session's user (sign-in completion and renewal). A user who has not
 * accepted the current license gets LICENSE_NOT_ACCEPTED with a short-lived license token.
 */
export async function issueIdToken({ ctx, headers }: { ctx: AuthCtx; headers: Headers }) {
  // Renewals repeat the same cookie; every session revocation clears the cache. A session that
  // slid forward comes with a refreshed cookie, passed on so the browser keeps it as long.
  const cookie = headers.get('cookie');
  const found = cookie
    ? await ctx.cache.get(`session:${cookie}`, async () => {
        const result = await ctx.auth.api.getSession({ headers, returnHeaders: true });
        return { session: result.response, cookies: result.headers.getSetCookie() };
      })
    : null;
  const session = found?.session;
  if (!session) throw new AppError('UNAUTHENTICATED');
  const userId = session.user.id;
  if (!isSessionLive(session.session, userId)) {
    // Past its absolute lifetime: renewals slid it, but a session never outlives 30 days.
    await endSession(ctx, session.session.token).catch(() => {});
    throw new AppError('SESSION_ENDED');
  }
  const identity = await ctx.cache.get(`identity:${userId}`, () => users.loadIdentity(ctx.db, userId));
  if (!identity) throw new AppError('UNAUTHENTICATED');
  if (identity.licenseVersion !== LICENSE_VERSION) {
    throw new AppError('LICENSE_NOT_ACCEPTED', { details: { licenseToken: await ctx.licenseTokens.issue(userId) } });
  }
  // The second factor an organisation (or the platform) requires (decision 0066): none set up yet,
  // the person enrols through their session cookie first; set up but not used by this session, it
  // ends, and they sign in again with it.
  const amr = session.session.amr ?? null;
  const shortfall = secondFactorShortfall(await secondFactorStateOf(ctx, userId), amr);
  if (shortfall === 'enrol') throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED');
  if (shortfall === 'prove') {
    await endSession(ctx, session.session.token);
    throw new AppError('SESSION_ENDED');
  }
  return { ...(await ctx.tokens.sign(identity.claims, { sessionId: session.session.id, amr })), cookies: found.cookies };
}

/** Records acceptance of the license version (decision 14). */
export async function acceptLicense({ ctx, token, version, ip }: { ctx: AuthCtx; token: string; version: string; ip: string }) {
  const userId = await ctx.licenseTokens.verify(token);
  const user = await users.findUserById(ctx.db, userId);
  assert(user && !user.deletedAt, 'LICENSE_TOKEN_INVALID');
  await changeIdentity(ctx, (tx) => users.recordLicenseAcceptance(tx, { id: newId(), userId, version, ipAddress: ip }));
  await audit(ctx.db, { actorId: userId, action: 'license.accept', targetType: 'license', targetId: version, ipAddress: ip });
}

/** Makes `orgId` the user's active organisation (spec section 4); the client renews its token. */
export async function changeOrganisation({
  ctx,
  userId,
  orgId,
  ip,
}: {
  ctx: AuthCtx;
  userId: string;
  orgId: string;
  ip: string;
}) {
  assert(await users.isOrganisationMember(ctx.db, userId, orgId), 'NOT_A_MEMBER');
  await changeIdentity(ctx, (tx) => users.setActiveOrganisation(tx, userId, orgId));
  await audit(ctx.db, { actorId: userId, action: 'user.change-org', targetType: 'group', targetId: orgId, orgId, ipAddress: ip });
}
