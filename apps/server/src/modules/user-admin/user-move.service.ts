import { effectiveRole, type Role } from '@patientsim/domain/roles/roles';
import type { MoveUserBody } from '@patientsim/domain/users/users.schemas';
import { endUserSessions } from '../../identity/sessions.js';
import { auditAs } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { changeIdentity } from '../../lib/read-cache.js';
import type { RequestUser } from '../../lib/access.js';
import type { Services } from '../../plugins/app/services.js';
import { assertSeatsKept, lockSeats } from '../invitations/seats.service.js';
import { findGroupById } from '../organisations/organisations.service.js';
import { addMembership, findMemberships, findUserById, removeMembers, setActiveOrganisation } from '../users/users.service.js';

/**
 * POST /users/{id}/move: the provider moves a person into the organisation `orgId` (the only place
 * the product offers it is the provider's users view, spec section 6). Out of `fromOrgId` when
 * given: that membership is archived and its sub-groups left, as a removal does, so their grades
 * stay in its archive. In the new organisation they hold `role` (default: their role in
 * `fromOrgId`, else their global role), it becomes their active organisation, and they take a seat
 * (the seats used, seat-holders and pending invitations that keep a seat, must still fit: decision
 * 0035). Their sessions end, as after a removal: no token names the organisation they left.
 * Refused: a deleted account, a key owner leaving their organisation, someone already a member
 * there, and while viewing the product as another user.
 */
export async function moveUser({
  ctx,
  actor,
  userId,
  body,
  ip,
}: {
  ctx: Pick<Services, 'db' | 'auth' | 'cache'>;
  actor: RequestUser;
  userId: string;
  body: MoveUserBody;
  ip: string;
}): Promise<{ ok: true }> {
  await changeIdentity(ctx, async (tx) => {
    const target = await findUserById(tx, userId);
    if (!target || target.deletedAt) throw new AppError('NOT_FOUND');
    const globalRole = target.role;
    let role: Role = body.role ?? globalRole;
    const from = body.fromOrgId ? await findGroupById(tx, body.fromOrgId) : null;
    if (body.fromOrgId) {
      if (!from || from.parentId !== null) throw new AppError('NOT_FOUND', { message: 'Organization not found.' });
      const [membership] = await findMemberships(tx, from.id, [userId]);
      if (!membership) throw new AppError('NOT_FOUND', { message: 'The user is not a member of this organization.' });
      if (from.ownerId === userId) {
        throw new AppError('KEY_OWNER_CANNOT_LEAVE', {
          message: 'The key owner of an organization cannot be moved. Choose another key owner first.',
        });
      }
      if (!body.role) role = effectiveRole(globalRole, membership.role);
    }
    // Locked: a move and invitations into the same organisation are counted one after the other.
    const seats = await lockSeats(tx, body.orgId);
    const { org } = seats;
    if ((await findMemberships(tx, org.id, [userId])).length > 0) {
      throw new AppError('CONFLICT', { message: 'The user is already a member of this organization.' });
    }
    if (from) await removeMembers(tx, from, [userId]);
    // A seat-holder, even when an archived subscribed membership comes back.
    await addMembership(tx, { groupId: org.id, userId, role, subscribed: false });
    await setActiveOrganisation(tx, userId, org.id);
    await assertSeatsKept(tx, seats, { message: 'The organization has no open seat. Increase its seat count first.' });
    await auditAs(tx, actor, {
      action: 'user.move',
      targetType: 'user',
      targetId: userId,
      orgId: org.id,
      ipAddress: ip,
      details: { email: target.email, fromOrgId: from?.id ?? null, toOrgId: org.id, role },
    });
  });
  await endUserSessions(ctx, [userId]);
  return { ok: true };
}
