import { generateId } from 'better-auth';
import { and, eq, gt } from 'drizzle-orm';
import { IMPERSONATION_MAX_SECONDS } from '@patientsim/domain/common/constants';
import type { Database } from '../db/client.js';
import { session } from '../db/schema/auth.js';
import { newId } from '../lib/ids.js';

/**
 * The user agent a View-As-User session is marked with. Such a session belongs to the super admin
 * and hangs off the session they started it from: signing that one out ends the view with it (the
 * row goes with its parent's, and the bearer check wants the parent live), and so do a password
 * change or deletion, which end all their sessions. No cookie carries it: it exists only so that
 * its View-As-User token can be refused the moment the view ends.
 */
const VIEW_SESSION_AGENT = 'view-as-user';

/**
 * Opens the session a View-As-User token is bound to (its `sid`): owned by the super admin, a child
 * of their session `parentSessionId`, and ending after `seconds` (at most IMPERSONATION_MAX_SECONDS),
 * when the token does.
 */
export async function openViewSession(
  db: Database,
  {
    superAdminId,
    parentSessionId,
    seconds,
    ipAddress,
    now = new Date(),
  }: { superAdminId: string; parentSessionId: string; seconds: number; ipAddress: string; now?: Date },
): Promise<{ sessionId: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + Math.min(seconds, IMPERSONATION_MAX_SECONDS) * 1000);
  const sessionId = newId();
  await db.insert(session).values({
    id: sessionId,
    // Never handed out: no cookie can name this session.
    token: generateId(32),
    userId: superAdminId,
    parentSessionId,
    createdAt: now,
    updatedAt: now,
    expiresAt,
    ipAddress,
    userAgent: VIEW_SESSION_AGENT,
  });
  return { sessionId, expiresAt };
}

/**
 * Ends a View-As-User session of `superAdminId`. True when this call ended it, false when it had
 * ended already. The caller clears the read cache once the deletion is committed: every process
 * then refuses the session's token.
 */
export async function endViewSession(
  db: Database,
  { sessionId, superAdminId, now = new Date() }: { sessionId: string; superAdminId: string; now?: Date },
): Promise<boolean> {
  const ended = await db
    .delete(session)
    .where(
      and(
        eq(session.id, sessionId),
        eq(session.userId, superAdminId),
        eq(session.userAgent, VIEW_SESSION_AGENT),
        gt(session.expiresAt, now),
      ),
    )
    .returning({ id: session.id });
  return ended.length > 0;
}
