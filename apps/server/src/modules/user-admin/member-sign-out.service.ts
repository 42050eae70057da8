import { effectiveRole, ROLE_RANK } from '@patientsim/domain/roles/roles';
import { endUserSessions } from '../../identity/sessions.js';
import type { OrgAccess, RequestUser } from '../../lib/access.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import type { Services } from '../../plugins/app/services.js';
import { findGroupById } from '../organisations/organisations.service.js';
import { findActiveMemberships, findMemberships, findUserById } from '../users/users.service.js';

/**
 * An organisation's admin signs a member out everywhere (a lost phone, a shared computer): every
 * session of the member ends at once on every process, so no cookie renews a token and no ID token
 * of theirs is accepted; they can sign in again with their password. Within the organisation's
 * reach only: not a member here is NOT_FOUND (never reveal other organisations); the caller
 * themself (their sessions are in their account), the key owner, a member ranked above the caller
 * and an account with the provider role anywhere are MEMBER_SIGN_OUT_LOCKED. Audited in the
 * organisation, with the member as target.
 */
export async function signOutMember({
  ctx,
  actor,
  access,
  userId,
  ip,
}: {
  ctx: Pick<Services, 'db' | 'auth' | 'cache'>;
  actor: RequestUser;
  access: OrgAccess;
  userId: string;
  ip: string;
}): Promise<{ ok: true }> {
  const [membership] = await findMemberships(ctx.db, access.orgId, [userId]);
  const target = membership ? await findUserById(ctx.db, userId) : null;
  if (!membership || !target || target.deletedAt) throw new AppError('NOT_FOUND');
  if (userId === actor.id) {
    throw new AppError('MEMBER_SIGN_OUT_LOCKED', { message: 'Your own sessions are in your account, under Sessions.' });
  }
  const organisation = access.group.parentId === null ? access.group : await findGroupById(ctx.db, access.orgId);
  const memberships = await findActiveMemberships(ctx.db, userId);
  const hasProviderRole = target.role === 'SUPER_ADMIN' || memberships.some((entry) => entry.role === 'SUPER_ADMIN');
  const isKeyOwner = organisation?.ownerId === userId;
  const isAboveActor = ROLE_RANK[effectiveRole(target.role, membership.role)] > ROLE_RANK[access.role];
  assert(!hasProviderRole && !isKeyOwner && !isAboveActor, 'MEMBER_SIGN_OUT_LOCKED');
  await endUserSessions(ctx, [userId]);
  await auditAs(ctx.db, actor, {
    orgId: access.orgId,
    action: 'org.user.sign-out',
    targetType: 'user',
    targetId: userId,
    ipAddress: ip,
  });
  return { ok: true };
}
