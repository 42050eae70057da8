import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../../db/client.js';
import { account, licenseAcceptance, user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';

type GroupRow = typeof group.$inferSelect;

/**
 * Users and their memberships: the one place that queries these tables (decision 0013). The member
 * list's pages are in `member-list.repository.ts`, the searches and the provider's directory in
 * `user-search.repository.ts`.
 */

export function findUserByEmail(db: Database, email: string) {
  return db
    .select()
    .from(user)
    .where(eq(user.email, email))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function findUserById(db: Database, id: string) {
  return db
    .select()
    .from(user)
    .where(eq(user.id, id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** The password hash of a user's credential account (null without one). */
export function findPasswordHash(db: Database, userId: string) {
  return db
    .select({ password: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
    .limit(1)
    .then((rows) => rows[0]?.password ?? null);
}

/**
 * A membership, or a removed one back: either way with the role and the subscription it is given
 * now (a member who returns through a subscribed invitation holds no seat; one who returns any other
 * way holds one).
 */
export function addMembership(db: Database, values: typeof groupMember.$inferInsert) {
  const subscribed = values.subscribed ?? false;
  return db
    .insert(groupMember)
    .values({ ...values, subscribed })
    .onConflictDoUpdate({
      target: [groupMember.groupId, groupMember.userId],
      set: { role: values.role, subscribed, removedAt: null },
    });
}

export function recordLicenseAcceptance(db: Database, values: typeof licenseAcceptance.$inferInsert) {
  return db.transaction(async (tx) => {
    await tx.insert(licenseAcceptance).values(values);
    await tx.update(user).set({ licenseVersion: values.version, updatedAt: new Date() }).where(eq(user.id, values.userId));
  });
}

/** True when the user is an active member of the top-level organisation `orgId`. */
export function isOrganisationMember(db: Database, userId: string, orgId: string) {
  return db
    .select({ id: group.id })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(
      and(eq(groupMember.userId, userId), eq(groupMember.groupId, orgId), isNull(groupMember.removedAt), isNull(group.parentId)),
    )
    .limit(1)
    .then((rows) => rows.length > 0);
}

export function setActiveOrganisation(db: Database, userId: string, orgId: string) {
  return db.update(user).set({ activeOrgId: orgId, updatedAt: new Date() }).where(eq(user.id, userId));
}

export function updateUser(db: Database, id: string, values: Partial<typeof user.$inferInsert>) {
  return db
    .update(user)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(user.id, id))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Active members of an organisation (for the all-members summary). */
export function findOrganisationMemberIds(db: Database, orgId: string) {
  return db
    .select({ userId: groupMember.userId })
    .from(groupMember)
    .where(and(eq(groupMember.groupId, orgId), isNull(groupMember.removedAt)))
    .then((rows) => rows.map((r) => r.userId));
}

/** Active memberships of the given users in a group. */
export function findMemberships(db: Database, groupId: string, userIds: string[]) {
  return db
    .select()
    .from(groupMember)
    .where(and(eq(groupMember.groupId, groupId), inArray(groupMember.userId, userIds), isNull(groupMember.removedAt)));
}

/**
 * Removes users from a group. From an organisation they are archived (kept with removed_at, for
 * the grading archive) and leave its sub-groups; from a sub-group the membership is deleted.
 */
export async function removeMembers(db: Database, target: GroupRow, userIds: string[]) {
  await db.transaction(async (tx) => {
    if (target.parentId === null) {
      const subgroups = await tx.select({ id: group.id }).from(group).where(eq(group.parentId, target.id));
      if (subgroups.length > 0) {
        await tx.delete(groupMember).where(
          and(
            inArray(
              groupMember.groupId,
              subgroups.map((g) => g.id),
            ),
            inArray(groupMember.userId, userIds),
          ),
        );
      }
      await tx
        .update(groupMember)
        .set({ removedAt: new Date() })
        .where(and(eq(groupMember.groupId, target.id), inArray(groupMember.userId, userIds)));
    } else {
      await tx.delete(groupMember).where(and(eq(groupMember.groupId, target.id), inArray(groupMember.userId, userIds)));
    }
  });
}

export function findUserSummary(db: Database, id: string) {
  return db
    .select({ user_id: user.id, email: user.email, given_name: user.givenName, family_name: user.familyName })
    .from(user)
    .where(eq(user.id, id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** Memberships (not removed) of a user, with the groups they point at. */
export function findActiveMemberships(db: Database, userId: string) {
  return db
    .select({
      groupId: group.id,
      name: group.name,
      parentId: group.parentId,
      productType: group.productType,
      inactive: group.inactive,
      ai: group.ai,
      role: groupMember.role,
      subscribed: groupMember.subscribed,
    })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(and(eq(groupMember.userId, userId), isNull(groupMember.removedAt)));
}

/** Adds members to a sub-group (those already in it stay as they are). */
export async function addGroupMembers(
  db: Database,
  groupId: string,
  members: ReadonlyArray<{ userId: string; subscribed: boolean }>,
) {
  if (members.length === 0) return;
  await db
    .insert(groupMember)
    .values(members.map(({ userId, subscribed }) => ({ groupId, userId, subscribed })))
    .onConflictDoNothing();
}

/** Those of `emails` whose accounts are active members of the organisation `orgId`. */
export function findMemberEmails(db: Database, orgId: string, emails: readonly string[]) {
  if (emails.length === 0) return Promise.resolve(new Set<string>());
  return db
    .select({ email: user.email })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(and(eq(groupMember.groupId, orgId), isNull(groupMember.removedAt), inArray(user.email, [...emails])))
    .then((rows) => new Set(rows.map((r) => r.email)));
}

/** The role of an active membership (the org-specific role). */
export function setMembershipRole(db: Database, { groupId, userId, role }: { groupId: string; userId: string; role: Role }) {
  return db
    .update(groupMember)
    .set({ role })
    .where(and(eq(groupMember.groupId, groupId), eq(groupMember.userId, userId), isNull(groupMember.removedAt)));
}

/** Every membership of a user, removed ones too, with the group it is in. */
export function findAllMembershipsOf(db: Database, userId: string) {
  return db
    .select({ group, role: groupMember.role, subscribed: groupMember.subscribed, removedAt: groupMember.removedAt })
    .from(groupMember)
    .innerJoin(group, eq(group.id, groupMember.groupId))
    .where(eq(groupMember.userId, userId))
    .orderBy(sql`${group.parentId} is not null`, sql`${groupMember.removedAt} is not null`, asc(group.name));
}

/** Marks an account deleted; false when it was already (or does not exist): a concurrent call won. */
export function markUserDeleted(db: Database, userId: string) {
  return db
    .update(user)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(user.id, userId), isNull(user.deletedAt)))
    .returning({ id: user.id })
    .then((rows) => rows.length > 0);
}

/**
 * Takes a user out of every group: organisation memberships are archived (kept with removed_at,
 * for the grading archive), sub-group memberships are deleted. Answers the organisations left.
 */
export async function archiveAllMemberships(db: Database, userId: string): Promise<string[]> {
  await db
    .delete(groupMember)
    .where(
      and(
        eq(groupMember.userId, userId),
        sql`${groupMember.groupId} in (select ${group.id} from ${group} where ${group.parentId} is not null)`,
      ),
    );
  const archived = await db
    .update(groupMember)
    .set({ removedAt: new Date() })
    .where(and(eq(groupMember.userId, userId), isNull(groupMember.removedAt)))
    .returning({ groupId: groupMember.groupId });
  return archived.map((row) => row.groupId);
}
