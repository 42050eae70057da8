import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { account, licenseAcceptance, user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { invitation } from '../../db/schema/invitations.js';

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

export function insertInvitation(db: Database, values: typeof invitation.$inferInsert) {
  return db.insert(invitation).values(values);
}

export function insertUserWithPassword(
  db: Database,
  { user: values, passwordHash }: { user: typeof user.$inferInsert & { id: string }; passwordHash: string },
) {
  return db.transaction(async (tx) => {
    await tx.insert(user).values(values);
    await tx
      .insert(account)
      .values({ id: values.id, accountId: values.id, providerId: 'credential', userId: values.id, password: passwordHash });
  });
}

export function addMembership(db: Database, values: typeof groupMember.$inferInsert) {
  return db
    .insert(groupMember)
    .values(values)
    .onConflictDoUpdate({ target: [groupMember.groupId, groupMember.userId], set: { role: values.role, removedAt: null } });
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
