/** The account's second factors in the identity library's tables (decision 0066). */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { passkey, twoFactor, user } from '../../db/schema/auth.js';

/** The person's authenticator app, verified or still being set up; undefined without one. */
export async function findAuthenticatorApp(db: Database, userId: string) {
  const [row] = await db.select({ verified: twoFactor.verified }).from(twoFactor).where(eq(twoFactor.userId, userId));
  return row;
}

/** Whether the sign-in asks the person for a second factor (`twoFactorEnabled`). */
export async function isTwoFactorEnabled(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, userId));
  return row?.twoFactorEnabled === true;
}

/** Locks the person's row for the rest of `tx`: factor removals of one person go one at a time. */
export async function lockUser(tx: Database, userId: string): Promise<void> {
  await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
}

export async function setTwoFactorEnabled(tx: Database, userId: string, enabled: boolean): Promise<void> {
  await tx.update(user).set({ twoFactorEnabled: enabled }).where(eq(user.id, userId));
}

/** Removes the person's authenticator app with its recovery codes. */
export async function deleteAuthenticatorApp(tx: Database, userId: string): Promise<void> {
  await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
}

/** One of the person's passkeys; undefined for another person's or an unknown id. */
export async function findOwnPasskey(db: Database, userId: string, passkeyId: string) {
  const [row] = await db
    .select({ id: passkey.id, name: passkey.name })
    .from(passkey)
    .where(and(eq(passkey.id, passkeyId), eq(passkey.userId, userId)));
  return row;
}

export async function deletePasskey(tx: Database, passkeyId: string): Promise<void> {
  await tx.delete(passkey).where(eq(passkey.id, passkeyId));
}
