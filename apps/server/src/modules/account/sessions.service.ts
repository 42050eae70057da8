import type { AccountSessions, EndedSessions } from '@patientsim/domain/account/sessions.schemas';
import { endSessions, findLiveBrowserSessions } from '../../identity/sessions.js';
import type { RequestUser } from '../../lib/access.js';
import { assert } from '../../lib/errors.js';
import type { Services } from '../../plugins/app/services.js';
import { describeDevice } from './device-name.js';

type Ctx = Pick<Services, 'db' | 'auth' | 'cache'>;

/** The caller's live browser sessions, the one of this request first ("This device"). */
export async function listOwnSessions({ ctx, actor }: { ctx: Ctx; actor: RequestUser }): Promise<AccountSessions> {
  const rows = await findLiveBrowserSessions(ctx.db, actor.id);
  const sessions = rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    // A session opened without a client address (a completed provisioning) has an empty one.
    ipAddress: row.ipAddress || null,
    signedInAt: row.createdAt.toISOString(),
    lastActiveAt: row.updatedAt.toISOString(),
    isCurrent: row.id === actor.sid,
  }));
  return { sessions: [...sessions.filter((row) => row.isCurrent), ...sessions.filter((row) => !row.isCurrent)] };
}

/**
 * Ends one of the caller's other sessions, on every process at once: its cookie renews no token and
 * its ID tokens are refused. Another person's session, or one that ended, is NOT_FOUND; the
 * caller's own is SESSION_IS_CURRENT (signing out ends it and clears the browser's cookie too).
 */
export async function endOwnSession({ ctx, actor, sessionId }: { ctx: Ctx; actor: RequestUser; sessionId: string }) {
  assert(sessionId !== actor.sid, 'SESSION_IS_CURRENT');
  const found = (await findLiveBrowserSessions(ctx.db, actor.id)).find((row) => row.id === sessionId);
  assert(found, 'NOT_FOUND');
  await endSessions(ctx, [found.token]);
  return { ok: true as const };
}

/** Ends every session of the caller but the one of this request ("Sign out everywhere else"). */
export async function endOtherOwnSessions({ ctx, actor }: { ctx: Ctx; actor: RequestUser }): Promise<EndedSessions> {
  const others = (await findLiveBrowserSessions(ctx.db, actor.id)).filter((row) => row.id !== actor.sid);
  if (others.length > 0)
    await endSessions(
      ctx,
      others.map((row) => row.token),
    );
  return { ended: others.length };
}
