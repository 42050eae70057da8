import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { account, licenseAcceptance, user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import type { GroupRow } from '../organisations/organisations.repository.js';

/** Users and their memberships: the one place that queries these tables (decision 0013). */

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

/** Adds users to a sub-group (those already in it stay as they are). */
export async function addGroupMembers(db: Database, groupId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return;
  await db
    .insert(groupMember)
    .values(userIds.map((userId) => ({ groupId, userId })))
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

/** `%` and `_` are wildcards of LIKE: a search term matches them literally. */
function likeTerm(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Active members of an organisation, optionally only those whose e-mail or names contain `term`
 * (trigram indexes), whose role there is `role`, and who are (or are not) members of `groupId`.
 */
export function searchOrganisationMembers(
  db: Database,
  {
    orgId,
    term,
    role,
    groupId,
    inGroup,
    limit,
  }: { orgId: string; term?: string | undefined; role?: string | undefined; groupId?: string; inGroup?: boolean; limit: number },
) {
  const memberRole = sql<string>`coalesce(${groupMember.role}, ${user.role})`;
  const inGroupSql = groupId
    ? sql`exists (select 1 from ${groupMember} as g2 where g2.group_id = ${groupId} and g2.user_id = ${user.id} and g2.removed_at is null)`
    : undefined;
  return db
    .select({
      user_id: user.id,
      email: user.email,
      given_name: user.givenName,
      family_name: user.familyName,
      role: memberRole,
    })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(
      and(
        eq(groupMember.groupId, orgId),
        isNull(groupMember.removedAt),
        isNull(user.deletedAt),
        term
          ? or(ilike(user.email, likeTerm(term)), ilike(user.givenName, likeTerm(term)), ilike(user.familyName, likeTerm(term)))
          : undefined,
        role ? sql`${memberRole} = ${role}` : undefined,
        inGroupSql && inGroup !== undefined ? (inGroup ? inGroupSql : sql`not ${inGroupSql}`) : undefined,
      ),
    )
    .orderBy(asc(user.familyName), asc(user.givenName), asc(user.email))
    .limit(limit);
}

/** Which memberships of a group a members list shows: active, active and subscribed, or removed. */
export type MembershipFilter = { groupId: string; variant: 'all' | 'subscribed' | 'archived'; term?: string | undefined };

function membershipWhere({ groupId, variant, term }: MembershipFilter) {
  const pattern = term ? escapeLike(term) : undefined;
  return and(
    eq(groupMember.groupId, groupId),
    variant === 'archived' ? isNotNull(groupMember.removedAt) : isNull(groupMember.removedAt),
    variant === 'subscribed' ? eq(groupMember.subscribed, true) : undefined,
    pattern ? or(ilike(user.email, pattern), ilike(user.givenName, pattern), ilike(user.familyName, pattern)) : undefined,
  );
}

/** `%term%` with LIKE's own wildcards (and its escape character) taken literally. */
function escapeLike(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function countGroupMemberships(db: Database, filter: MembershipFilter) {
  return db
    .select({ total: count() })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(membershipWhere(filter))
    .then((rows) => rows[0]?.total ?? 0);
}

/** One page of a group's memberships, by family name, given name and e-mail. */
export function findGroupMembershipsPage(
  db: Database,
  filter: MembershipFilter,
  { offset, limit }: { offset: number; limit: number },
) {
  return db
    .select({
      userId: user.id,
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
      globalRole: user.role,
      memberRole: groupMember.role,
      subscribed: groupMember.subscribed,
      removedAt: groupMember.removedAt,
      deletedAt: user.deletedAt,
    })
    .from(groupMember)
    .innerJoin(user, eq(user.id, groupMember.userId))
    .where(membershipWhere(filter))
    .orderBy(asc(user.familyName), asc(user.givenName), asc(user.email), asc(user.id))
    .offset(offset)
    .limit(limit);
}

/** The role of an active membership (the org-specific role). */
export function setMembershipRole(db: Database, { groupId, userId, role }: { groupId: string; userId: string; role: string }) {
  return db
    .update(groupMember)
    .set({ role })
    .where(and(eq(groupMember.groupId, groupId), eq(groupMember.userId, userId), isNull(groupMember.removedAt)));
}
