import { hasPermission } from '@patientsim/domain/roles/permissions';
import { effectiveRole } from '@patientsim/domain/roles/roles';
import type { UserDetails } from '@patientsim/domain/users/users.schemas';
import { isProductType } from '@patientsim/domain/product/product-types';
import type { Database } from '../../db/client.js';
import type { RequestUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { countMembers, toWireGroup } from '../organisations/organisations.service.js';
import { findAllMembershipsOf, findUserById } from '../users/users.service.js';

/**
 * GET /users/{id}: a user's account and every membership (removed ones too), for the provider's
 * user view; not while viewing the product as another user. A deleted account is still shown.
 */
export async function getUserDetails({
  db,
  actor,
  userId,
}: {
  db: Database;
  actor: RequestUser;
  userId: string;
}): Promise<UserDetails> {
  if (!hasPermission(actor.role, 'users:read-all'))
    throw new AppError('FORBIDDEN', { message: 'Not available while viewing as another user.' });
  const found = await findUserById(db, userId);
  if (!found) throw new AppError('NOT_FOUND');
  const globalRole = found.role;
  const rows = await findAllMembershipsOf(db, userId);
  const counts = await countMembers(
    db,
    rows.map((row) => row.group.id),
  );
  return {
    user: {
      user_id: found.id,
      email: found.email,
      given_name: found.givenName,
      family_name: found.familyName,
      role: globalRole,
      productType: isProductType(found.productType) ? found.productType : 'EMS',
      email_verified: found.emailVerified,
      activeOrg: found.activeOrgId,
      deleted: found.deletedAt !== null,
      created_at: found.createdAt.toISOString(),
    },
    memberships: rows.map((row) => ({
      group: toWireGroup(row.group, counts.get(row.group.id) ?? 0),
      role: effectiveRole(globalRole, row.role),
      subscribed: row.subscribed,
      key_owner: row.group.ownerId === userId,
      removed_at: row.removedAt ? row.removedAt.toISOString() : null,
    })),
  };
}
