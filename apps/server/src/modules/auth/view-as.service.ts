import { IMPERSONATION_MAX_SECONDS } from '@patientsim/domain/common/constants';
import { endViewSession, openViewSession } from '../../identity/impersonation.js';
import { tokenLifetimeSeconds } from '../../identity/tokens.js';
import { changeIdentity } from '../../lib/read-cache.js';
import { auditAs } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { isSuperAdminAnywhere, type RequestUser, VIEW_OF_SUPER_ADMIN } from '../../lib/access.js';
import type { Services } from '../../plugins/app/services.js';
import { findViewSessionOrganisation } from '../audit/audit.service.js';
import * as users from '../users/users.service.js';

type Ctx = Pick<Services, 'db' | 'tokens' | 'cache'>;

/**
 * View As User (spec sections 2 and 7, `POST /auth/loginAs`): an ID token for the member `email` of
 * `orgId`, carrying `act: { sub: <super admin> }`, bound to a session of its own that ends with the
 * token (at most an hour; never renewed). Viewing as another super admin is refused. The start is
 * audited with its optional reason, in the same transaction as the session.
 */
export async function loginAs({
  ctx,
  actor,
  orgId,
  email,
  reason,
  ip,
}: {
  ctx: Ctx;
  actor: RequestUser;
  orgId: string;
  email: string;
  reason?: string | undefined;
  ip: string;
}) {
  const target = await users.findUserByEmail(ctx.db, email);
  const isMember = target && !target.deletedAt && (await users.isOrganisationMember(ctx.db, target.id, orgId));
  const identity = isMember ? await users.loadIdentity(ctx.db, target.id) : null;
  if (!target || !identity) throw new AppError('NOT_FOUND', { message: 'No such user in this organization.' });
  if (isSuperAdminAnywhere(identity.claims)) {
    throw new AppError('FORBIDDEN', { message: VIEW_OF_SUPER_ADMIN });
  }
  const seconds = Math.min(tokenLifetimeSeconds(identity.claims.role), IMPERSONATION_MAX_SECONDS);
  const { sessionId, expiresAt } = await ctx.db.transaction(async (tx) => {
    const opened = await openViewSession(tx, { superAdminId: actor.id, parentSessionId: actor.sid, seconds, ipAddress: ip });
    await auditAs(tx, actor, {
      action: 'view-as.start',
      targetType: 'user',
      targetId: target.id,
      orgId,
      ipAddress: ip,
      details: { sessionId: opened.sessionId, expiresAt: opened.expiresAt.toISOString(), ...(reason ? { reason } : {}) },
    });
    return opened;
  });
  const token = await ctx.tokens.sign(identity.claims, {
    sessionId,
    act: { sub: actor.id },
    maxSeconds: Math.ceil((expiresAt.getTime() - Date.now()) / 1000),
  });
  return { data: token };
}

/**
 * Ends the caller's View-As-User session (the way back, or the end of its time): its token is
 * refused from then on, on every process. Audited with its optional reason. A token that is not a
 * View-As-User one has no view to end (404).
 */
export async function endViewAs({
  ctx,
  actor,
  reason,
  expired,
  ip,
}: {
  ctx: Ctx;
  actor: RequestUser;
  reason?: string | undefined;
  expired: boolean;
  ip: string;
}) {
  const superAdminId = actor.act?.sub;
  if (!superAdminId) throw new AppError('NOT_FOUND', { message: 'There is no View As User session to end.' });
  const orgId = await findViewSessionOrganisation(ctx.db, { superAdminId, sessionId: actor.sid });
  await changeIdentity(ctx, async (tx) => {
    if (!(await endViewSession(tx, { sessionId: actor.sid, superAdminId }))) throw new AppError('SESSION_ENDED');
    // The end is the super admin's own act, not one made through the view.
    await auditAs(
      tx,
      { id: superAdminId },
      {
        action: 'view-as.end',
        targetType: 'user',
        targetId: actor.id,
        orgId,
        ipAddress: ip,
        details: { sessionId: actor.sid, cause: expired ? 'expired' : 'ended', ...(reason ? { reason } : {}) },
      },
    );
  });
}
