import { and, desc, eq, gt, gte, isNull, ne } from 'drizzle-orm';
import { EMAIL_RECLAIM_SECONDS } from '@patientsim/domain/common/constants';
import type { Database } from '../db/client.js';
import { emailReclaim, user } from '../db/schema/auth.js';
import { AppError } from '../lib/errors.js';
import { hashToken, newId, newToken } from '../lib/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { reclaimResetEmail } from '../mail/templates.js';
import { findHolder, isVerifiedHolder, releaseUnverifiedClaim } from './email-ownership.js';

/**
 * Taking an account back (decision 0033). When an organisation changes a member's address, the
 * address the account proved last keeps the power to take it back for 30 days, even once the new
 * address is verified: a single-use link restores it, and whoever follows it then chooses a new
 * password. Without this, an admin could move a member onto an address of their own, verify it,
 * and reset the password there.
 */

export type Reclaim = typeof emailReclaim.$inferSelect;

/** Where "this wasn't me" links land: the web page that takes the account back. */
export const reclaimLink = (publicUrl: string, token: string) =>
  `${publicUrl}/auth/reclaim-email?token=${encodeURIComponent(token)}`;

/**
 * Opens the reclaim of an organisation's address change, inside the transaction of the change.
 * Answers the link's token (only its hash is stored) and when it expires.
 */
export async function openReclaim(
  db: Database,
  values: Pick<Reclaim, 'userId' | 'email' | 'newEmail' | 'changedById' | 'orgId' | 'changedBy'>,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const changedAt = new Date();
  const expiresAt = new Date(changedAt.getTime() + EMAIL_RECLAIM_SECONDS * 1000);
  await db.insert(emailReclaim).values({ ...values, id: newId(), changedAt, tokenHash: hashToken(token), expiresAt });
  return { token, expiresAt };
}

/**
 * A fresh link for the newest open reclaim of `email` (a password reset asked for that address
 * after the account moved away from it), or null when the address has none. The earlier links
 * of that change keep working.
 */
export async function renewReclaimLink(db: Database, email: string): Promise<{ token: string; reclaim: Reclaim } | null> {
  const [open] = await db
    .select({ reclaim: emailReclaim })
    .from(emailReclaim)
    .innerJoin(user, eq(user.id, emailReclaim.userId))
    .where(
      and(
        eq(emailReclaim.email, email),
        isNull(emailReclaim.usedAt),
        gt(emailReclaim.expiresAt, new Date()),
        isNull(user.deletedAt),
        ne(user.email, email),
      ),
    )
    .orderBy(desc(emailReclaim.changedAt))
    .limit(1);
  if (!open) return null;
  const { reclaim } = open;
  const token = newToken();
  await db.insert(emailReclaim).values({
    id: newId(),
    userId: reclaim.userId,
    email: reclaim.email,
    newEmail: reclaim.newEmail,
    changedById: reclaim.changedById,
    orgId: reclaim.orgId,
    changedBy: reclaim.changedBy,
    changedAt: reclaim.changedAt,
    tokenHash: hashToken(token),
    expiresAt: reclaim.expiresAt,
  });
  return { token, reclaim };
}

/**
 * A password reset asked for `email` when an organisation moved an account away from it within
 * the last 30 days: mails the address a fresh link that takes the account back (then a new
 * password). Nothing when the address has no open reclaim. The mail goes out in the background.
 */
export async function mailReclaimLinkForReset(
  ctx: { db: Database; mailer: Mailer; env: { PUBLIC_URL: string } },
  email: string,
): Promise<void> {
  const renewed = await renewReclaimLink(ctx.db, email);
  if (!renewed) return;
  const { newEmail, changedBy, changedAt, expiresAt } = renewed.reclaim;
  const url = reclaimLink(ctx.env.PUBLIC_URL, renewed.token);
  const message = reclaimResetEmail({ to: email, url, newEmail, changedBy, changedAt, expiresAt });
  void ctx.mailer.send(message).catch(() => {});
}

/**
 * Follows a reclaim link, inside the caller's transaction: the account goes back to the link's
 * address, verified. The link is used up, and so are those of later changes (an address the
 * account was moved to cannot take it back in turn); an earlier change's links keep working.
 * Refused when the link is unknown, used or expired, the account deleted, or another account has
 * proved the address since. Answers the account, its address, the address it left, and the
 * account that lost an unverified claim on the address (its sessions must end), if any.
 */
export async function redeemReclaim(
  db: Database,
  token: string,
): Promise<{ userId: string; email: string; leftEmail: string; released: string | null }> {
  const now = new Date();
  const [link] = await db
    .select()
    .from(emailReclaim)
    .where(and(eq(emailReclaim.tokenHash, hashToken(token)), isNull(emailReclaim.usedAt), gt(emailReclaim.expiresAt, now)))
    .limit(1);
  if (!link) throw new AppError('RECLAIM_TOKEN_INVALID');
  const [account] = await db.select().from(user).where(eq(user.id, link.userId)).limit(1);
  if (!account || account.deletedAt) throw new AppError('RECLAIM_TOKEN_INVALID');
  if (isVerifiedHolder(await findHolder(db, link.email, link.userId))) throw new AppError('RECLAIM_TOKEN_INVALID');
  const closed = await db
    .update(emailReclaim)
    .set({ usedAt: now })
    .where(and(eq(emailReclaim.userId, link.userId), isNull(emailReclaim.usedAt), gte(emailReclaim.changedAt, link.changedAt)))
    .returning({ id: emailReclaim.id });
  // A concurrent use of the same link closed it first.
  if (!closed.some((row) => row.id === link.id)) throw new AppError('RECLAIM_TOKEN_INVALID');
  const released = await releaseUnverifiedClaim(db, link.email, link.userId);
  await db
    .update(user)
    .set({ email: link.email, emailVerified: true, previousEmail: null, updatedAt: now })
    .where(eq(user.id, link.userId));
  return { userId: link.userId, email: link.email, leftEmail: account.email, released };
}
