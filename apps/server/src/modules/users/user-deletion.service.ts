import { canAssignRole } from '@patientsim/domain/roles/roles';
import { endUserSessions } from '../../identity/sessions.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { changeIdentity } from '../../lib/read-cache.js';
import type { RequestUser } from '../../lib/access.js';
import type { Services } from '../../plugins/app/services.js';
import { findOwnedOrganisationIds } from '../../identity/principals.js';
import { archiveAllMemberships, findUserById, markUserDeleted } from './users.repository.js';

/**
 * DELETE /users/{id}: the provider's staff delete an account (the only place the product offers
 * it is the provider's users view, spec sections 2 and 6). The account is kept, marked deleted: it
 * can no longer sign in, its organisation memberships are archived (it appears, flagged deleted,
 * in each organisation's archive, as removed users do) and its sub-group memberships end, freeing
 * its seats; all its sessions end. Refused: one's own account, the key owner of an organisation
 * (another key owner must be chosen first, as the key owner cannot leave), and while viewing the
 * product as another user.
 */
export async function deleteUserAccount({
  ctx,
  actor,
  userId,
  ip,
}: {
  ctx: Pick<Services, 'db' | 'auth' | 'cache'>;
  actor: RequestUser;
  userId: string;
  ip: string;
}): Promise<{ ok: true }> {
  if (userId === actor.id) throw new AppError('FORBIDDEN', { message: 'You cannot delete your own account.' });
  await changeIdentity(ctx, async (tx) => {
    const target = await findUserById(tx, userId);
    if (!target || target.deletedAt) throw new AppError('NOT_FOUND');
    assert(canAssignRole(actor.role, target.role), 'FORBIDDEN');
    const keyOwned = await findOwnedOrganisationIds(tx, userId);
    if (keyOwned.length > 0) {
      throw new AppError('KEY_OWNER_CANNOT_LEAVE', {
        message: 'The key owner of an organization cannot be deleted. Choose another key owner first.',
      });
    }
    // A conditional update: of two deletions at once, the second finds nothing left to delete.
    if (!(await markUserDeleted(tx, userId))) throw new AppError('NOT_FOUND');
    const organisations = await archiveAllMemberships(tx, userId);
    await auditAs(tx, actor, {
      action: 'user.delete',
      targetType: 'user',
      targetId: userId,
      ipAddress: ip,
      details: { email: target.email, organisations },
    });
  });
  // After the commit: from here on the account's tokens are refused (its claims load as none) and
  // its sessions are gone on every process.
  await endUserSessions(ctx, [userId]);
  return { ok: true };
}
