import type { BetterAuthOptions, BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getIP, isAPIError } from 'better-auth/api';
import { LIMITS } from '../lib/limits.js';
import type { RateLimiter } from '../lib/rate-limiter.js';
import type { DeviceCookies } from './device-cookies.js';
import { findPendingSignIn } from './second-factor.js';

/** The first lockout of a client lasts 15 minutes; each further one twice the last, at most 24 hours. */
export const SIGN_IN_LOCKOUT = { firstSeconds: 15 * 60, maxSeconds: 24 * 60 * 60 } as const;

/** How long a client's `lockout`-th lockout (1, 2, ...) lasts: 15 min, 30 min, 1 h, ... 16 h, then 24 h. */
export function lockoutSeconds(lockout: number): number {
  return Math.min(SIGN_IN_LOCKOUT.firstSeconds * 2 ** Math.max(0, lockout - 1), SIGN_IN_LOCKOUT.maxSeconds);
}

/** Who tries to sign in, as the limits see them: the client address, and the device the account knows it by. */
export type SignInClient = { ip: string; deviceId: string | null };

/** The key of an account's counters for one client: its device when the account knows it, else its address. */
export function signInClientKey(email: string, { ip, deviceId }: SignInClient): string {
  return deviceId ? `${email}|device:${deviceId}` : `${email}|ip:${ip}`;
}

export type Lockout = { seconds: number; isAccountWide: boolean };

export type SignInLimitsOptions = {
  limiter: RateLimiter;
  deviceCookies: DeviceCookies;
  /** Tells the owner of `email` that a client was locked out, or that new clients are paused. */
  onLockout: (email: string, lockout: Lockout) => void;
};

/** One sign-in attempt as the limits count it: the account, the client and the key of their counters. */
export type SignInAttempt = { email: string; client: SignInClient; key: string };

/**
 * The attempt of a sign-in call, or null when it names no address. The client address is the one
 * better-auth records in the session (the product's routes pass the address they trust).
 */
export function signInAttempt(
  deviceCookies: DeviceCookies,
  { body, headers = new Headers(), options }: { body?: unknown; headers?: Headers | undefined; options: BetterAuthOptions },
): SignInAttempt | null {
  const email = (body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string') return null;
  const address = email.toLowerCase();
  const ip = getIP(headers, options) ?? 'unknown';
  const client = { ip, deviceId: deviceCookies.deviceOf(address, headers.get('cookie') ?? undefined) };
  return { email: address, client, key: signInClientKey(address, client) };
}

/** The sign-in endpoint whose attempts the limits count (better-auth's path): the password's. */
const PASSWORD_PATH = '/sign-in/email';
/**
 * The second step of a sign-in (decision 0066): a code of the app, a recovery code or a passkey,
 * counted against the account of the two-factor cookie the password's step set, like a password.
 */
const SECOND_STEP_PATHS = new Set([
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  '/passkey/verify-authentication',
]);

/**
 * The address of the account whose password's step set the request's two-factor cookie, or null
 * without a valid one (a code checked while setting an app up has none: it is no sign-in).
 */
async function secondStepEmail(ctx: Parameters<typeof findPendingSignIn>[0]): Promise<string | null> {
  const pending = await findPendingSignIn(ctx);
  return pending ? ((await ctx.context.internalAdapter.findUserById(pending.userId))?.email ?? null) : null;
}

function tooManyAttempts(retryAfterSeconds: number) {
  return new APIError(
    'TOO_MANY_REQUESTS',
    { message: 'Too many sign-in attempts', code: 'RATE_LIMITED' },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/**
 * The sign-in limits of decision 0039 as a better-auth plugin: they run inside better-auth's own
 * pipeline, before the password is verified, wherever its sign-in is called from. The second step
 * of a sign-in (a code or a passkey, decision 0066) is counted alike, for the account whose
 * password's step it completes.
 */
export function signInLimits({ limiter, deviceCookies, onLockout }: SignInLimitsOptions) {
  /**
   * Counts a sign-in attempt before its password is checked (check and count are one step, so
   * parallel attempts cannot all slip under a limit): per client IP, per account and client, and
   * per account from clients it does not know. The attempt that first goes past the account and
   * client's limit locks that client out, longer each time; the one that first goes past the
   * account's limit pauses the clients it does not know. Both tell the owner.
   */
  const count = async ({ email, client, key }: SignInAttempt) => {
    const fromIp = await limiter.consume(client.ip, LIMITS.signInIp);
    if (!fromIp.isAllowed) throw tooManyAttempts(fromIp.retryAfterSeconds);
    const fromClient = await limiter.consume(key, LIMITS.signInClient);
    if (!fromClient.isAllowed) {
      // A refused attempt checks nothing: it does not use up the address's allowance.
      await limiter.refund(client.ip, LIMITS.signInIp);
      // Only one attempt sees the count just past the limit: later ones find the lock (a block restarts
      // the count there and each refusal adds to it), so each lockout is counted and mailed once.
      if (fromClient.count !== LIMITS.signInClient.max + 1) throw tooManyAttempts(fromClient.retryAfterSeconds);
      const lockouts = await limiter.consume(key, LIMITS.signInClientLockouts);
      const seconds = lockoutSeconds(lockouts.count);
      await limiter.block(key, LIMITS.signInClient, seconds);
      onLockout(email, { seconds, isAccountWide: false });
      throw tooManyAttempts(seconds);
    }
    // A browser the account knows is not slowed by guesses made elsewhere.
    if (client.deviceId) return;
    const fromAnywhere = await limiter.consume(email, LIMITS.signInAccount);
    if (fromAnywhere.isAllowed) return;
    await Promise.all([limiter.refund(client.ip, LIMITS.signInIp), limiter.refund(key, LIMITS.signInClient)]);
    if (fromAnywhere.count === LIMITS.signInAccount.max + 1) {
      onLockout(email, { seconds: fromAnywhere.retryAfterSeconds, isAccountWide: true });
    }
    throw tooManyAttempts(fromAnywhere.retryAfterSeconds);
  };

  const matcher = (ctx: { path?: string }) =>
    ctx.path === PASSWORD_PATH || (ctx.path !== undefined && SECOND_STEP_PATHS.has(ctx.path));
  const attemptOf = async (ctx: Parameters<typeof findPendingSignIn>[0]) => {
    const body: unknown = ctx.path === PASSWORD_PATH ? ctx.body : { email: await secondStepEmail(ctx) };
    return signInAttempt(deviceCookies, { body, headers: ctx.headers, options: ctx.context.options });
  };

  return {
    id: 'sign-in-limits',
    hooks: {
      before: [
        {
          matcher,
          handler: createAuthMiddleware(async (ctx) => {
            const attempt = await attemptOf(ctx);
            if (attempt) await count(attempt);
          }),
        },
      ],
      after: [
        {
          matcher,
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            // A refused password or code stays counted.
            if (isAPIError(returned) && returned.statusCode < 500) return;
            if (isAPIError(returned)) {
              // The server failed, the password was not judged: the attempt does not count.
              const failed = await attemptOf(ctx).catch(() => null);
              if (failed) await refundAttempt(limiter, failed).catch(() => {});
              return;
            }
            const signedIn = ctx.context.newSession;
            if (ctx.path === PASSWORD_PATH && (!signedIn || signedIn.user.twoFactorEnabled === true)) {
              // A right password of an account with a second factor is half a sign-in: the client's
              // run stays counted until the second step succeeds, so guessing codes after it meets the
              // same limit; the address's and the account's counts, which count failures, get it back.
              const half = await attemptOf(ctx);
              if (half) {
                await Promise.all([
                  limiter.refund(half.client.ip, LIMITS.signInIp),
                  ...(half.client.deviceId ? [] : [limiter.refund(half.email, LIMITS.signInAccount)]),
                ]);
              }
              return;
            }
            if (!signedIn) return;
            // The second step used up the two-factor cookie: its account is the new session's.
            const attempt = signInAttempt(deviceCookies, {
              body: { email: signedIn.user.email },
              headers: ctx.headers,
              options: ctx.context.options,
            });
            if (!attempt) return;
            const { email, client, key } = attempt;
            // Only failures stay counted: the owner's success clears this client's run and gives the
            // attempt back. The account's count of unknown clients stays: guessing elsewhere may go on.
            await Promise.all([
              limiter.reset(key, LIMITS.signInClient),
              limiter.reset(key, LIMITS.signInClientLockouts),
              limiter.refund(client.ip, LIMITS.signInIp),
              ...(client.deviceId ? [] : [limiter.refund(email, LIMITS.signInAccount)]),
            ]);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** Gives back the points of an attempt whose password was never judged (the server failed). */
export async function refundAttempt(limiter: RateLimiter, { email, client, key }: SignInAttempt) {
  await Promise.all([
    limiter.refund(key, LIMITS.signInClient),
    limiter.refund(client.ip, LIMITS.signInIp),
    ...(client.deviceId ? [] : [limiter.refund(email, LIMITS.signInAccount)]),
  ]);
}
