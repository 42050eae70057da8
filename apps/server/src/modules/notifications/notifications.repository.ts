import { and, count, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { PSEUDO_GROUPS, organisationOfRoleGroup } from '@patientsim/domain/notifications/notification.schemas';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { group, groupMember } from '../../db/schema/groups.js';
import { notification, notificationReceipt, notificationTarget } from '../../db/schema/notifications.js';

import { type Principal, ROLE_PSEUDO_GROUP, rolesOfOrgRoleGroup, rolesOfPseudoGroup } from '../../identity/principals.js';

export type { Principal };

/** Targets naming the user, or one of the groups (real or pseudo) among the principals. */
function targetsOneOf(userId: string, principals: Principal[]) {
  const groupIds = principals.filter((p) => p.principalType === 'GROUP').map((p) => p.principalId);
  return or(
    and(eq(notificationTarget.principalType, 'USER'), eq(notificationTarget.principalId, userId)),
    groupIds.length > 0
      ? and(eq(notificationTarget.principalType, 'GROUP'), inArray(notificationTarget.principalId, groupIds))
      : sql`false`,
  );
}

/** Notifications addressed to any of the principals, with the user's read time, newest first. */
export function findNotificationsFor(
  db: Database,
  { userId, principals, unreadOnly, limit }: { userId: string; principals: Principal[]; unreadOnly: boolean; limit: number },
) {
  const addressed = db
    .selectDistinct({ id: notificationTarget.notificationId })
    .from(notificationTarget)
    .where(targetsOneOf(userId, principals));
  return db
    .select({ notification, readAt: notificationReceipt.readAt })
    .from(notification)
    .leftJoin(
      notificationReceipt,
      and(eq(notificationReceipt.notificationId, notification.id), eq(notificationReceipt.userId, userId)),
    )
    .where(and(inArray(notification.id, addressed), unreadOnly ? isNull(notificationReceipt.readAt) : undefined))
    .orderBy(desc(notification.date))
    .limit(limit);
}

export function isAddressedTo(
  db: Database,
  { notificationId, userId, principals }: { notificationId: string; userId: string; principals: Principal[] },
) {
  return db
    .select({ id: notificationTarget.notificationId })
    .from(notificationTarget)
    .where(and(eq(notificationTarget.notificationId, notificationId), targetsOneOf(userId, principals)))
    .limit(1)
    .then((rows) => rows.length > 0);
}

export function setReadAt(
  db: Database,
  { notificationId, userId, readAt }: { notificationId: string; userId: string; readAt: Date | null },
) {
  return db
    .insert(notificationReceipt)
    .values({ notificationId, userId, readAt })
    .onConflictDoUpdate({ target: [notificationReceipt.notificationId, notificationReceipt.userId], set: { readAt } });
}

export function insertNotification(db: Database, values: typeof notification.$inferInsert) {
  return db.insert(notification).values(values);
}

export function insertTargets(db: Database, values: Array<typeof notificationTarget.$inferInsert>) {
  return db.insert(notificationTarget).values(values);
}

/**
 * The condition "this user is reached by one of `targets`": the same rule as principalsOf, read
 * from the other side (every active user a target names now). A user's roles are those of their
 * active memberships (the membership's own role, or the global one), or the global role without any.
 */
export function reachedBy(targets: ReadonlyArray<Principal>): SQL {
  const userIds = targets.filter((t) => t.principalType === 'USER').map((t) => t.principalId);
  const groupIds = new Set(targets.filter((t) => t.principalType === 'GROUP').map((t) => t.principalId));
  const activeMembership = (extra: SQL) =>
    sql`exists (select 1 from ${groupMember} gm join ${group} g on g.id = gm.group_id where gm.user_id = ${user.id} and gm.removed_at is null and ${extra})`;
  const membershipRole = sql`coalesce(gm.role, ${user.role})`;
  const conditions: SQL[] = [];
  if (userIds.length > 0) conditions.push(inArray(user.id, userIds));
  if (groupIds.has('ALL_USERS')) conditions.push(sql`true`);
  for (const pseudo of new Set(Object.values(ROLE_PSEUDO_GROUP))) {
    if (!groupIds.has(pseudo)) continue;
    const roles = rolesOfPseudoGroup(pseudo);
    conditions.push(
      sql`(${activeMembership(sql`${membershipRole} in ${roles}`)} or (${user.role} in ${roles} and not ${activeMembership(sql`true`)}))`,
    );
  }
  if (groupIds.has('ALL_KEYOWNERS')) {
    conditions.push(sql`exists (select 1 from ${group} owned where owned.owner_id = ${user.id} and owned.parent_id is null)`);
  }
  const plainGroups: string[] = [];
  for (const id of groupIds) {
    const roleGroup = organisationOfRoleGroup(id);
    if (roleGroup) {
      const roles = rolesOfOrgRoleGroup(roleGroup.suffix);
      conditions.push(activeMembership(sql`g.id = ${roleGroup.orgId} and g.parent_id is null and ${membershipRole} in ${roles}`));
    } else if (!(PSEUDO_GROUPS as readonly string[]).includes(id)) {
      plainGroups.push(id);
    }
  }
  if (plainGroups.length > 0) conditions.push(activeMembership(sql`gm.group_id in ${plainGroups}`));
  return and(isNull(user.deletedAt), conditions.length > 0 ? or(...conditions) : sql`false`) ?? sql`false`;
}

/** How many people `targets` reach now, and how many of them have read the notification. */
export function countAudience(db: Database, { notificationId, targets }: { notificationId: string; targets: Principal[] }) {
  return db
    .select({ audience: count(), readCount: count(notificationReceipt.readAt) })
    .from(user)
    .leftJoin(
      notificationReceipt,
      and(eq(notificationReceipt.notificationId, notificationId), eq(notificationReceipt.userId, user.id)),
    )
    .where(reachedBy(targets))
    .then((rows) => rows[0] ?? { audience: 0, readCount: 0 });
}

/** Notifications someone sent (announcements), newest first, with their sender's names. */
export function findSentNotificationsPage(db: Database, { offset, limit }: { offset: number; limit: number }) {
  return db
    .select({ notification, senderGivenName: user.givenName, senderFamilyName: user.familyName, senderEmail: user.email })
    .from(notification)
    .leftJoin(user, eq(user.id, notification.senderId))
    .where(isNotNull(notification.senderId))
    .orderBy(desc(notification.date), desc(notification.id))
    .offset(offset)
    .limit(limit);
}

export function countSentNotifications(db: Database) {
  return db
    .select({ total: count() })
    .from(notification)
    .where(isNotNull(notification.senderId))
    .then((rows) => rows[0]?.total ?? 0);
}

export function findTargetsOf(db: Database, notificationIds: string[]) {
  if (notificationIds.length === 0) return Promise.resolve([]);
  return db.select().from(notificationTarget).where(inArray(notificationTarget.notificationId, notificationIds));
}
