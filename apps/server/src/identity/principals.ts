/**
 * The principals a person is reached through (spec section 6): the person, their groups, and the
 * pseudo groups of the roles they hold. Notifications address them; case access lists name them.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { GroupsDataEntry } from '@patientsim/domain/identity/token.schemas';
import { ROLES, type Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import { group } from '../db/schema/groups.js';
import type { ReadCache } from '../lib/read-cache.js';

export type Principal = { principalType: 'GROUP' | 'USER'; principalId: string };

/** The pseudo group of each role (spec section 6). */
export const ROLE_PSEUDO_GROUP: Record<Role, string> = {
  STUDENT: 'ALL_STUDENTS',
  USER: 'ALL_INSTRUCTORS',
  ADMIN: 'ALL_ADMINS',
  SUPER_ADMIN: 'ALL_ADMINS',
};

/** The pseudo group of each role within one organisation: `{orgId}_ADMINS`, `{orgId}_INSTRUCTORS`. */
export const ORG_ROLE_GROUP_SUFFIX: Record<Role, '_ADMINS' | '_INSTRUCTORS' | null> = {
  STUDENT: null,
  USER: '_INSTRUCTORS',
  ADMIN: '_ADMINS',
  SUPER_ADMIN: '_ADMINS',
};

/** The roles a role pseudo group reaches (ALL_ADMINS: admins and super admins), read from ROLE_PSEUDO_GROUP. */
export function rolesOfPseudoGroup(pseudoGroup: string): Role[] {
  return ROLES.filter((role) => ROLE_PSEUDO_GROUP[role] === pseudoGroup);
}

/** The roles `{orgId}_ADMINS` or `{orgId}_INSTRUCTORS` reaches in its organisation, read from ORG_ROLE_GROUP_SUFFIX. */
export function rolesOfOrgRoleGroup(suffix: '_ADMINS' | '_INSTRUCTORS'): Role[] {
  return ROLES.filter((role) => ORG_ROLE_GROUP_SUFFIX[role] === suffix);
}

/**
 * The principals a user is reached through: the user, every group, and the pseudo groups of the
 * roles held (spec section 6): ALL_USERS for everyone, ALL_ADMINS / ALL_INSTRUCTORS /
 * ALL_STUDENTS by role, ALL_KEYOWNERS, and {orgId}_ADMINS / {orgId}_INSTRUCTORS per organisation.
 */
export function principalsOf(user: {
  id: string;
  role: Role;
  groupsData: readonly Pick<GroupsDataEntry, '_id' | 'parent' | 'role'>[];
  keyOwnerOf?: readonly string[];
}): Principal[] {
  const groups = new Set<string>(['ALL_USERS']);
  groups.add(ROLE_PSEUDO_GROUP[user.role]);
  for (const entry of user.groupsData) {
    groups.add(entry._id);
    groups.add(ROLE_PSEUDO_GROUP[entry.role]);
    const suffix = ORG_ROLE_GROUP_SUFFIX[entry.role];
    if (entry.parent === null && suffix) groups.add(`${entry._id}${suffix}`);
  }
  if (user.keyOwnerOf && user.keyOwnerOf.length > 0) groups.add('ALL_KEYOWNERS');
  return [
    { principalType: 'USER', principalId: user.id },
    ...[...groups].map((id) => ({ principalType: 'GROUP' as const, principalId: id })),
  ];
}

/** Organisations whose key owner the user is (a named statement: the case list asks on every page). */
export function findOwnedOrganisationIds(db: Database, userId: string): Promise<string[]> {
  return prepared(db, 'owned_organisations', (name) =>
    db
      .select({ id: group.id })
      .from(group)
      .where(and(eq(group.ownerId, sql.placeholder('userId')), isNull(group.parentId)))
      .prepare(name),
  )
    .execute({ userId })
    .then((rows) => rows.map((r) => r.id));
}

/**
 * `findOwnedOrganisationIds` through the read cache, for the reads every page makes (the case
 * list, the notifications): the key owner is a column of the organisation, and every write to
 * groups clears the cache in every process (lib/read-cache.ts).
 */
export function ownedOrganisationIdsOf({ db, cache }: { db: Database; cache: ReadCache }, userId: string): Promise<string[]> {
  return cache.get(`owned-organisations:${userId}`, () => findOwnedOrganisationIds(db, userId));
}
