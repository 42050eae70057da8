import type { LimitRule, RateLimiter } from './rate-limiter.js';
import { AppError } from './errors.js';

/**
 * The identity rate limits (decisions 0010 and 0039), one table for every module that counts.
 * Sign-in attempts count before the password is checked and only failures stay counted (see
 * identity/sign-in-limits.ts):
 * - per account and client (the browser when it holds the account's device cookie, else the client
 *   address): 5 failures in a row (forgotten a day after the first, or at a successful sign-in),
 *   then a lockout of that client alone; its lockouts are counted for 7 days from the first (or
 *   until a successful sign-in) so that each lasts twice as long;
 * - per account, from clients it does not know (no device cookie of its own): 20 failures in a
 *   day, then such clients are paused for the rest of the day; browsers it knows still get through
 *   and a password reset lifts the pause;
 * - per client IP: 50 failures in 15 minutes.
 * E-mails: 3 of one kind per address in 15 minutes, 30 per client IP in an hour. Wrong current
 * passwords before a sensitive change: 5 per account in 15 minutes.
 */
export const LIMITS = {
  signInClient: { name: 'signin-client', max: 5, windowSeconds: 24 * 60 * 60 },
  // A counter, never a refusal: how many lockouts the account has had on that client.
  signInClientLockouts: { name: 'signin-client-lockouts', max: Number.MAX_SAFE_INTEGER, windowSeconds: 7 * 24 * 60 * 60 },
  signInAccount: { name: 'signin-account-new-clients', max: 20, windowSeconds: 24 * 60 * 60 },
  signInIp: { name: 'signin-ip', max: 50, windowSeconds: 15 * 60 },
  passwordCheck: { name: 'password-check', max: 5, windowSeconds: 15 * 60 },
  emailPerAddress: { name: 'mail-address', max: 3, windowSeconds: 15 * 60 },
  emailPerIp: { name: 'mail-ip', max: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, LimitRule>;

/** The answer past a limit: 429 with the seconds until the client may try again. */
export function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** Counts one e-mail of `kind` to `address` (and from `ip` when given); refuses past either limit. */
export async function countEmail(ctx: { limiter: RateLimiter }, kind: string, address: string, ip?: string) {
  const state = await ctx.limiter.consume(`${kind}:${address}`, LIMITS.emailPerAddress);
  if (!state.isAllowed) throw rateLimited(state.retryAfterSeconds);
  if (ip) {
    const fromIp = await ctx.limiter.consume(ip, LIMITS.emailPerIp);
    if (!fromIp.isAllowed) throw rateLimited(fromIp.retryAfterSeconds);
  }
}
