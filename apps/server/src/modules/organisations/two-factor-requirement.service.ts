import { REQUIRABLE_ROLES, type TwoFactorRequirement } from '@patientsim/domain/auth/two-factor.schemas';
import type { Database } from '../../db/client.js';
import type { AuditActor } from '../../lib/audit.js';
import { auditAs } from '../../lib/audit.js';
import type { OrgAccess } from '../../lib/access.js';
import { AppError, assert } from '../../lib/errors.js';
import { changeIdentity, type ReadCache } from '../../lib/read-cache.js';
import * as repo from './organisations.repository.js';

/**
 * Which roles of an organisation must sign in with a second factor (decision 0066). Set on the
 * organisation itself, never on a sub-group: the organisation's rule covers all its members.
 */

/** The organisation's required roles; a sub-group is not found. */
export function getTwoFactorRequirement({ access }: { access: OrgAccess }): TwoFactorRequirement {
  assert(access.group.parentId === null, 'NOT_FOUND');
  return { roles: REQUIRABLE_ROLES.filter((role) => access.group.twoFactorRoles.includes(role)) };
}

/**
 * Sets the organisation's required roles, audited in its trail with the roles before and after.
 * The identity caches are cleared once it commits, so the enrolment gate applies at once.
 */
export async function setTwoFactorRequirement({
  ctx,
  actor,
  access,
  roles,
  ip,
}: {
  ctx: { db: Database; cache: ReadCache };
  actor: AuditActor;
  access: OrgAccess;
  roles: TwoFactorRequirement['roles'];
  ip: string;
}): Promise<TwoFactorRequirement> {
  assert(access.group.parentId === null, 'NOT_FOUND');
  // One order, the roles' own, whatever order they were sent in.
  const after = REQUIRABLE_ROLES.filter((role) => roles.includes(role));
  const before = await changeIdentity(ctx, async (tx) => {
    const locked = await repo.lockGroup(tx, access.orgId);
    if (!locked) throw new AppError('NOT_FOUND');
    await repo.updateGroup(tx, access.orgId, { twoFactorRoles: after });
    return locked.twoFactorRoles;
  });
  await auditAs(ctx.db, actor, {
    action: 'org.two-factor.require',
    targetType: 'group',
    targetId: access.orgId,
    orgId: access.orgId,
    ipAddress: ip,
    details: { before, after },
  });
  return { roles: after };
}
