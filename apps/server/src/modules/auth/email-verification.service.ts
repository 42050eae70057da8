import { proveAddress } from '../../identity/email-ownership.js';
import { endUserSessions } from '../../identity/sessions.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { audit } from '../../lib/audit.js';
import { assert } from '../../lib/errors.js';
import { sendInBackground } from '../../lib/background-mail.js';
import { countEmail } from '../../lib/limits.js';
import { verificationLink } from '../../lib/verification-link.js';
import { verificationEmail } from '../../mail/templates.js';
import * as users from '../users/users.service.js';
import type { AuthCtx } from './auth.context.js';

/** Verification of an account's e-mail address. */

/** Sends a verification e-mail to the user's address unless it is verified already. */
export async function sendVerificationEmail({ ctx, userId }: { ctx: AuthCtx; userId: string }) {
  const user = await users.findUserById(ctx.db, userId);
  assert(user && !user.deletedAt, 'NOT_FOUND');
  if (user.emailVerified) return;
  await countEmail(ctx, 'verify', user.email);
  const token = await ctx.verificationTokens.issue({ userId, email: user.email, previousEmail: user.previousEmail });
  sendInBackground(ctx, verificationEmail({ to: user.email, url: verificationLink(ctx.env.PUBLIC_URL, token) }));
}

/**
 * Follows a verification link: the account proves the address (and wins it from an unverified
 * claim of another account, which goes back to the address it proved last and is signed out).
 */
export async function verifyEmail({ ctx, token, ip }: { ctx: AuthCtx; token: string; ip: string }) {
  const link = await ctx.verificationTokens.verify(token);
  const { released } = await changeIdentity(ctx, (tx) => proveAddress(tx, link));
  if (released) await endUserSessions(ctx, [released]);
  await audit(ctx.db, {
    actorId: link.userId,
    action: 'user.verify-email',
    targetType: 'user',
    targetId: link.userId,
    ipAddress: ip,
    ...(released ? { details: { released } } : {}),
  });
}
