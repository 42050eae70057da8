import { APIError } from 'better-auth/api';
import { findHolder, findPendingChangeFrom, isVerifiedHolder } from '../../identity/email-ownership.js';
import { mailReclaimLinkForReset } from '../../identity/email-reclaim.js';
import { assertStrongPassword, verifyPassword } from '../../identity/password.js';
import { endUserSessions } from '../../identity/sessions.js';
import { signInAttempt, signInClientKey } from '../../identity/sign-in-limits.js';
import { AppError } from '../../lib/errors.js';
import { countEmail, LIMITS, rateLimited } from '../../lib/limits.js';
import * as users from '../users/users.service.js';
import type { AuthCtx } from './auth.context.js';

/** Passwords: the reset by e-mailed link, and the check of the current one before a sensitive change. */

/**
 * Checks the signed-in user's current password before a sensitive change (a stolen token alone
 * is not enough). Wrong guesses are limited per account (LIMITS.passwordCheck).
 */
export async function verifyCurrentPassword({
  ctx,
  userId,
  password,
}: {
  ctx: Pick<AuthCtx, 'db' | 'limiter'>;
  userId: string;
  password: string;
}) {
  // Counted before the check (parallel guesses cannot all be checked); a right password gives it back.
  const state = await ctx.limiter.consume(userId, LIMITS.passwordCheck);
  if (!state.isAllowed) throw rateLimited(state.retryAfterSeconds);
  const hash = await users.findPasswordHash(ctx.db, userId);
  const isRight = hash !== null && (await verifyPassword({ hash, password }));
  if (!isRight) throw new AppError('CURRENT_PASSWORD_WRONG');
  await ctx.limiter.refund(userId, LIMITS.passwordCheck);
}

/** Mails a reset link if the account exists; the answer and its timing are the same either way. */
export async function requestPasswordReset({ ctx, email, ip }: { ctx: AuthCtx; email: string; ip: string }) {
  await countEmail(ctx, 'reset', email, ip);
  // The account whose proven address this is: its holder, or one that moved to a new address it
  // has not verified yet (the link goes to this proven address, see createAuth).
  const holder = await findHolder(ctx.db, email);
  const account = isVerifiedHolder(holder) ? holder : await findPendingChangeFrom(ctx.db, email);
  // Else an organisation may have moved an account away from this address: it can take it back.
  if (!account) return mailReclaimLinkForReset(ctx, email);
  // A deleted account keeps its address (it stays taken) but gets no mail.
  if (account.deletedAt) return;
  await ctx.auth.api.requestPasswordReset({ body: { email: account.email, redirectTo: '/auth/reset-password' } });
}

/** The account a reset token was made for, while the token is unused and unexpired. */
async function findResetAccount(ctx: AuthCtx, token: string) {
  const found = await (await ctx.auth.$context).internalAdapter.findVerificationValue(`reset-password:${token}`);
  // A copy read from Redis carries its expiry as text.
  if (!found || new Date(found.expiresAt).getTime() <= Date.now()) return null;
  return users.findUserById(ctx.db, found.value);
}

/**
 * Sets a new password with a reset token (single use, 1 hour); other sessions end. Returns the
 * cookies to set: the resetting browser becomes known to the account, and its sign-in limits lift.
 */
export async function resetPassword({
  ctx,
  token,
  newPassword,
  headers,
}: {
  ctx: AuthCtx;
  token: string;
  newPassword: string;
  headers: Headers;
}) {
  // better-auth uses the link up before it touches Redis: a reset that then fails (Redis out of
  // reach) would leave the person without a link and with the old password. What needs Redis runs
  // first, leaving the link as it was when it fails: reading the link, and ending the account's
  // sessions (which the reset does anyway). A link mailed before the account was deleted resets nothing.
  const account = await findResetAccount(ctx, token);
  if (!account || account.deletedAt) throw new AppError('RESET_TOKEN_INVALID');
  assertStrongPassword(newPassword, account);
  await endUserSessions(ctx, [account.id]);
  try {
    await ctx.auth.api.resetPassword({ body: { token, newPassword } });
    ctx.cache.clear();
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) throw new AppError('RESET_TOKEN_INVALID');
    throw error;
  }
  return trustResettingClient(ctx, { userId: account.id, headers });
}

/**
 * After a password reset (it proved the mailbox): forgets the account's sign-in failures, the pause
 * of new clients and the locks of the client that reset it (by address, and by device if the
 * account knows it), and returns the device cookie that makes that browser known to the account.
 */
async function trustResettingClient(ctx: AuthCtx, { userId, headers }: { userId: string; headers: Headers }) {
  // Read after the reset: it may have given the account back its proven address.
  const account = await users.findUserById(ctx.db, userId);
  if (!account) return [];
  const attempt = signInAttempt(ctx.deviceCookies, { body: { email: account.email }, headers, options: ctx.auth.options });
  if (!attempt) return [];
  const { email, client } = attempt;
  const keys = [signInClientKey(email, { ip: client.ip, deviceId: null })];
  if (client.deviceId) keys.push(attempt.key);
  // The password is changed already: a failing counter store must not make the answer say otherwise
  // (the token is used up); the device cookie still lets this browser through.
  await Promise.all([
    ctx.limiter.reset(email, LIMITS.signInAccount),
    ...keys.flatMap((key) => [ctx.limiter.reset(key, LIMITS.signInClient), ctx.limiter.reset(key, LIMITS.signInClientLockouts)]),
  ]).catch(() => {});
  return [ctx.deviceCookies.issue(account.email)];
}
