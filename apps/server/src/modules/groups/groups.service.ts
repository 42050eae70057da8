import type { Group, GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { isProductType } from '@patientsim/domain/product/product-types';
import type { RequestUser } from '../../plugins/app/authenticate.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './groups.repository.js';

/** The wire shape of spec section 3: metadata as JSON text in `description`. */
export function toWireGroup(row: repo.GroupRow, memberCount: number): Group {
  const metadata: GroupMetadata = {
    ...(row.parentId ? { parent: row.parentId } : {}),
    ownerId: row.ownerId,
    seats: row.seats,
    memberCount,
    productType: isProductType(row.productType) ? row.productType : 'EMS',
    dev: row.dev,
    testing: row.testing,
    debug: row.debug,
    ai: row.ai,
    inactive: row.inactive,
  };
  return { _id: row.id, name: row.name, description: JSON.stringify(metadata), owner: row.ownerId };
}

/**
 * The groups of a user. Anyone sees their own; a super admin sees anyone's; an admin or instructor
 * sees those of a member of their organisations, limited to groups inside them. Anyone else gets
 * NOT_FOUND (never reveal another organisation's data).
 */
export async function listUserGroups({ db, actor, userId }: { db: Database; actor: RequestUser; userId: string }): Promise<Group[]> {
  let rows = await repo.findGroupsOfUser(db, userId);
  if (actor.id !== userId && actor.role !== 'SUPER_ADMIN') {
    const actorOrgs = new Set(actor.groupsData.filter((g) => g.parent === null && g.role !== 'STUDENT').map((g) => g._id));
    rows = rows.filter((row) => actorOrgs.has(row.parentId ?? row.id));
    if (rows.length === 0) throw new AppError('NOT_FOUND');
  }
  const counts = await repo.countMembers(db, rows.map((r) => r.id));
  return rows.map((row) => toWireGroup(row, counts.get(row.id) ?? 0));
}
