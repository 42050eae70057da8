import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { SESSION_ABSOLUTE_SECONDS } from '@patientsim/domain/common/constants';
import type { Database } from '../db/client.js';
import { session } from '../db/schema/auth.js';
import type { ReadCache } from '../lib/read-cache.js';
import type { Auth } from './auth.js';

/** Dates arrive as strings from a session kept in Redis or memory as JSON. */
type SessionRow = { userId: string; createdAt: Date | string; expiresAt: Date | string; parentSessionId?: string | null };

/**
 * A session is live while it exists (sign-out, password change or reset, removal from an
 * organisation and account deletion delete it), has not expired, and is younger than the
 * absolute lifetime: renewals slide `expiresAt`, never `createdAt`.
 */
export function isSessionLive(row: SessionRow | null, userId: string, now = new Date()): boolean {
  if (!row || row.userId !== userId) return false;
  const expiresAt = new Date(row.expiresAt).getTime();
  const createdAt = new Date(row.createdAt).getTime();
  return expiresAt > now.getTime() && createdAt + SESSION_ABSOLUTE_SECONDS * 1000 > now.getTime();
}

/** The session behind an ID token's `sid`, read through the cache (cleared by every revocation). */
export function findSession(db: Database, cache: ReadCache, sessionId: string): Promise<SessionRow | null> {
  return cache.get(`sid:${sessionId}`, () =>
    db
      .select({
        userId: session.userId,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
        parentSessionId: session.parentSessionId,
      })
      .from(session)
      .where(eq(session.id, sessionId))
      .limit(1)
      .then((rows) => rows[0] ?? null),
  );
}

/**
 * Ends every session of a user (and so every ID token minted for them) on every process, or throws:
 * it never returns while a session it was asked to end can still be read (decision 0036).
 */
export async function endUserSessions(ctx: { auth: Auth; cache: ReadCache }, userIds: Iterable<string>): Promise<void> {
  const ids = [...userIds];
  await revokeApplicationGrants(ctx.auth, 'userId', ids);
  const internal = (await ctx.auth.$context).internalAdapter;
  for (const userId of ids) {
    // better-auth removes the sessions' copies in Redis after their rows, and only logs a failure
    // there: a copy left behind would be read before the database. They go first, here, where a
    // failure is thrown; then every row, the sessions Redis no longer lists included.
    const copies = await internal.listSessions(userId);
    if (copies.length > 0) await internal.deleteSessions(copies.map((copy) => copy.token));
    await internal.deleteUserSessions(userId);
  }
  ctx.cache.clear();
}

/** Ends one session (its copy in Redis and its row), or throws: nothing is left half ended. */
export async function endSession(ctx: { auth: Auth; cache: ReadCache }, sessionToken: string): Promise<void> {
  await endSessions(ctx, [sessionToken]);
}

/**
 * Ends the sessions of these tokens (each its copy in Redis and its row) on every process, or
 * throws: the cache is cleared once, after the last. A View-As-User session started from one of
 * them ends with it (its row names it as parent).
 */
export async function endSessions(ctx: { auth: Auth; cache: ReadCache }, sessionTokens: Iterable<string>): Promise<void> {
  const internal = (await ctx.auth.$context).internalAdapter;
  const tokens = [...sessionTokens];
  const sessionIds: string[] = [];
  for (const token of tokens) {
    const found = await internal.findSession(token);
    if (found) sessionIds.push(found.session.id);
  }
  await revokeApplicationGrants(ctx.auth, 'sessionId', sessionIds);
  for (const token of tokens) await internal.deleteSession(token);
  ctx.cache.clear();
}

/**
 * Revokes the refresh tokens the platform's applications were granted by these people, or in
 * these sessions (decision 0065). The OAuth provider's refresh grant does not ask whether the
 * session it was granted in still lives, so without this an application would go on renewing the
 * tokens of a person signed out everywhere, removed or deleted. Before the sessions end: a failure
 * here leaves them live rather than half ended.
 */
async function revokeApplicationGrants(auth: Auth, field: 'userId' | 'sessionId', values: string[]): Promise<void> {
  if (values.length === 0) return;
  const { adapter } = await auth.$context;
  await adapter.updateMany({
    model: 'oauthRefreshToken',
    where: [{ field, operator: 'in', value: values }],
    update: { revoked: new Date() },
  });
}

/** The ids of the applications' refresh tokens granted in the session `sessionId` (decision 0065). */
export async function applicationGrantsOf(auth: Auth, sessionId: string): Promise<string[]> {
  const { adapter } = await auth.$context;
  const grants = await adapter.findMany<{ id: string }>({
    model: 'oauthRefreshToken',
    where: [{ field: 'sessionId', value: sessionId }],
  });
  return grants.map((grant) => grant.id);
}

/**
 * After a password change that ended a person's other sessions and replaced the current one with
 * `successor`: every refresh token the platform's applications were granted by the person is
 * revoked but `kept` (those of the current session, read before the change: the ended sessions'
 * rows are gone, and with them the grants' session), which move to the successor so that they end
 * with it (decision 0065).
 */
export async function keepOnlyApplicationGrants(
  auth: Auth,
  userId: string,
  { kept, successor }: { kept: string[]; successor: string },
): Promise<void> {
  const { adapter } = await auth.$context;
  await adapter.updateMany({
    model: 'oauthRefreshToken',
    where: [
      { field: 'userId', value: userId },
      ...(kept.length > 0 ? [{ field: 'id', operator: 'not_in' as const, value: kept }] : []),
    ],
    update: { revoked: new Date() },
  });
  if (kept.length === 0) return;
  await adapter.updateMany({
    model: 'oauthRefreshToken',
    where: [{ field: 'id', operator: 'in', value: kept }],
    update: { sessionId: successor },
  });
}

/** A browser's session of a person, as their session list reads it (the token only to end it). */
export type BrowserSession = {
  id: string;
  token: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The live sessions a person signed in to from a browser, most recently renewed first: not the
 * View-As-User sessions a super admin opens from one of them (those end with their parent).
 * "Live" as `isSessionLive` says, read from the database, where every session is stored (Redis
 * holds copies only).
 */
export function findLiveBrowserSessions(db: Database, userId: string, now = new Date()): Promise<BrowserSession[]> {
  return db
    .select({
      id: session.id,
      token: session.token,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    })
    .from(session)
    .where(
      and(
        eq(session.userId, userId),
        isNull(session.parentSessionId),
        gt(session.expiresAt, now),
        gt(session.createdAt, new Date(now.getTime() - SESSION_ABSOLUTE_SECONDS * 1000)),
      ),
    )
    .orderBy(desc(session.updatedAt), desc(session.createdAt));
}

/** The id of the session behind a session token (what ID tokens name in `sid`). */
export async function findSessionId(auth: Auth, sessionToken: string): Promise<string> {
  const found = await (await auth.$context).internalAdapter.findSession(sessionToken);
  if (!found) throw new Error('the session just created was not found');
  return found.session.id;
}
