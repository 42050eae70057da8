import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { group } from '../../db/schema/groups.js';
import { notification, notificationReceipt, notificationTarget } from '../../db/schema/notifications.js';

export type Principal = { principalType: 'GROUP' | 'USER'; principalId: string };

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

/** Organisations whose key owner the user is. */
export function findOwnedOrganisationIds(db: Database, userId: string) {
  return db
    .select({ id: group.id })
    .from(group)
    .where(and(eq(group.ownerId, userId), isNull(group.parentId)))
    .then((rows) => rows.map((r) => r.id));
}
