import { SignJWT, jwtVerify } from 'jose';
import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import { EMAIL_VERIFICATION_TOKEN_SECONDS } from '@patientsim/domain/common/constants';
import type { Database } from '../db/client.js';
import { emailReclaim, user } from '../db/schema/auth.js';
import { AppError } from '../lib/errors.js';

/**
 * Who owns an e-mail address. An address counts only once its owner has proved it by following a
 * link sent to it (sign-up, invitation or verification). An unverified claim (an e-mail change not
 * yet confirmed) never blocks the real owner: whoever proves the address first wins it, and the
 * unverified account goes back to the last address it proved.
 */

const PURPOSE = 'verify-email';

/** Verification links bound to one account and one address (a link never verifies anyone else). */
export function createVerificationTokens(secret: string) {
  const key = new TextEncoder().encode(`${secret}:verify-email`);
  return {
    /** `previousEmail`: the account's address when the link was made (see `proveAddress`). */
    issue({ userId, email, previousEmail }: { userId: string; email: string; previousEmail: string | null }): Promise<string> {
      return new SignJWT({ purpose: PURPOSE, email, prev: previousEmail })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${EMAIL_VERIFICATION_TOKEN_SECONDS}s`)
        .sign(key);
    },
    async verify(token: string): Promise<{ userId: string; email: string; previousEmail: string | null }> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { purpose, email, prev, sub } = payload as { purpose?: unknown; email?: unknown; prev?: unknown; sub?: unknown };
        if (purpose !== PURPOSE || typeof sub !== 'string' || typeof email !== 'string')
          throw new AppError('VERIFICATION_TOKEN_INVALID');
        return { userId: sub, email, previousEmail: typeof prev === 'string' ? prev : null };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('VERIFICATION_TOKEN_INVALID');
      }
    },
  };
}

export type VerificationTokens = ReturnType<typeof createVerificationTokens>;

/** The address an account without any proven address is moved to when it loses its claim. */
export const unclaimedAddress = (userId: string) => `${userId}@unclaimed.invalid`;

type Holder = typeof user.$inferSelect;

/** The account that holds `email` now (verified or not), other than `exceptUserId`. */
export function findHolder(db: Database, email: string, exceptUserId?: string): Promise<Holder | null> {
  return db
    .select()
    .from(user)
    .where(exceptUserId ? and(eq(user.email, email), ne(user.id, exceptUserId)) : eq(user.email, email))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** True when an account has proved `email` (deleted accounts keep their address: it stays taken). */
export const isVerifiedHolder = (holder: Holder | null): holder is Holder => holder !== null && holder.emailVerified;

/**
 * Takes `email` away from an account that only claims it (not verified): the account goes back
 * to the last address it proved, or to an unclaimed placeholder when that one is taken meanwhile
 * or it never proved one. Returns the id of the account that lost the claim (its sessions must
 * end), or null when nobody held the address unverified. Run it inside the transaction that gives
 * the address to its proven owner.
 */
export async function releaseUnverifiedClaim(db: Database, email: string, exceptUserId?: string): Promise<string | null> {
  const holder = await findHolder(db, email, exceptUserId);
  if (!holder || holder.emailVerified) return null;
  const previous = holder.previousEmail;
  const isPreviousFree = previous !== null && (await findHolder(db, previous, holder.id)) === null;
  await db
    .update(user)
    .set({
      email: isPreviousFree ? previous : unclaimedAddress(holder.id),
      emailVerified: isPreviousFree,
      previousEmail: null,
      updatedAt: new Date(),
    })
    .where(and(eq(user.id, holder.id), eq(user.email, email)));
  return holder.id;
}

/**
 * Follows a verification link: the account proves `email`. When the account still holds the
 * address, it becomes verified. When it lost the address to an unverified claim of someone else
 * meanwhile (it is back on `previousEmail`), it wins it back. A link for an address the account has
 * since moved away from, or that another account has proved, is refused.
 * Returns the id of the account that lost its claim (its sessions must end), if any.
 */
export async function proveAddress(
  db: Database,
  { userId, email, previousEmail }: { userId: string; email: string; previousEmail: string | null },
): Promise<{ released: string | null }> {
  return db.transaction(async (tx) => {
    const [account] = await tx.select().from(user).where(eq(user.id, userId)).limit(1);
    if (!account || account.deletedAt) throw new AppError('VERIFICATION_TOKEN_INVALID');
    if (account.email === email) {
      if (!account.emailVerified) {
        await tx.update(user).set({ emailVerified: true, previousEmail: null, updatedAt: new Date() }).where(eq(user.id, userId));
      }
      return { released: null };
    }
    // Lost to someone else's claim, the account went back to the address it had when the link was
    // made (or to the placeholder); otherwise it moved on to another address and the link is stale.
    const isDisplaced = account.email === previousEmail || account.email === unclaimedAddress(userId);
    if (!isDisplaced) throw new AppError('VERIFICATION_TOKEN_INVALID');
    // The owner took the account back from this address (email-reclaim.ts): it is not theirs.
    if (await hasReclaimedFrom(tx, userId, email)) throw new AppError('VERIFICATION_TOKEN_INVALID');
    if (isVerifiedHolder(await findHolder(tx, email, userId))) throw new AppError('VERIFICATION_TOKEN_INVALID');
    const released = await releaseUnverifiedClaim(tx, email, userId);
    await tx
      .update(user)
      .set({ email, emailVerified: true, previousEmail: null, updatedAt: new Date() })
      .where(eq(user.id, userId));
    return { released };
  });
}

/**
 * True when the account was taken back from `email` after an organisation moved it there (with a
 * "this wasn't me" link, or a reset from the address it left).
 */
function hasReclaimedFrom(db: Database, userId: string, email: string): Promise<boolean> {
  return db
    .select({ id: emailReclaim.id })
    .from(emailReclaim)
    .where(and(eq(emailReclaim.userId, userId), eq(emailReclaim.newEmail, email), isNotNull(emailReclaim.usedAt)))
    .limit(1)
    .then((rows) => rows.length > 0);
}

/** The account waiting to verify a new address whose last proven address is `email`. */
export function findPendingChangeFrom(db: Database, email: string): Promise<Holder | null> {
  return db
    .select()
    .from(user)
    .where(and(eq(user.previousEmail, email), eq(user.emailVerified, false)))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/**
 * A password reset is mailed to the last proven address only; following it proves that address
 * again, so an account waiting to verify a new address goes back to the proven one (the owner
 * recovers an account whose e-mail was changed behind their back).
 */
export async function restoreProvenAddress(db: Database, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [account] = await tx.select().from(user).where(eq(user.id, userId)).limit(1);
    if (!account || account.emailVerified || !account.previousEmail) return;
    if (isVerifiedHolder(await findHolder(tx, account.previousEmail, userId))) return;
    await releaseUnverifiedClaim(tx, account.previousEmail, userId);
    await tx
      .update(user)
      .set({ email: account.previousEmail, emailVerified: true, previousEmail: null, updatedAt: new Date() })
      .where(eq(user.id, userId));
    // When an organisation made the change, this took the account back from it: the new address's
    // verification link must not move it there again (see hasReclaimedFrom).
    await tx
      .update(emailReclaim)
      .set({ usedAt: new Date() })
      .where(and(eq(emailReclaim.userId, userId), eq(emailReclaim.newEmail, account.email), isNull(emailReclaim.usedAt)));
  });
}

/** Where a password reset for this account may be mailed: its proven address, or nowhere. */
export function resetAddressOf(account: { email: string; emailVerified: boolean; previousEmail?: string | null }) {
  if (account.emailVerified) return account.email;
  return account.previousEmail ?? null;
}
