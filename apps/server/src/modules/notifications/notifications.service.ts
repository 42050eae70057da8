import type { Notification } from '@patientsim/domain/notifications/notification.schemas';
import type { Database } from '../../db/client.js';
import { assert } from '../../lib/errors.js';
import type { RequestUser } from '../../plugins/app/authenticate.js';
import * as repo from './notifications.repository.js';

const LIST_LIMIT = 100;

/**
 * The principals a user is reached through: the user, every group, and the pseudo groups of the
 * roles held (spec section 6): ALL_USERS for everyone, ALL_ADMINS / ALL_INSTRUCTORS /
 * ALL_STUDENTS by role, ALL_KEYOWNERS, and {orgId}_ADMINS / {orgId}_INSTRUCTORS per organisation.
 */
export function principalsOf(
  user: Pick<RequestUser, 'id' | 'role' | 'groupsData'> & { keyOwnerOf?: string[] },
): repo.Principal[] {
  const groups = new Set<string>(['ALL_USERS']);
  const roleGroup = { STUDENT: 'ALL_STUDENTS', USER: 'ALL_INSTRUCTORS', ADMIN: 'ALL_ADMINS', SUPER_ADMIN: 'ALL_ADMINS' } as const;
  groups.add(roleGroup[user.role]);
  for (const entry of user.groupsData) {
    groups.add(entry._id);
    groups.add(roleGroup[entry.role]);
    if (entry.parent === null && (entry.role === 'ADMIN' || entry.role === 'SUPER_ADMIN')) groups.add(`${entry._id}_ADMINS`);
    if (entry.parent === null && entry.role === 'USER') groups.add(`${entry._id}_INSTRUCTORS`);
  }
  if (user.keyOwnerOf && user.keyOwnerOf.length > 0) groups.add('ALL_KEYOWNERS');
  return [
    { principalType: 'USER', principalId: user.id },
    ...[...groups].map((id) => ({ principalType: 'GROUP' as const, principalId: id })),
  ];
}

function toWire(row: Awaited<ReturnType<typeof repo.findNotificationsFor>>[number]): Notification {
  const n = row.notification;
  return {
    _id: n.id,
    type: n.type,
    title: n.title,
    message: n.message,
    color: n.color,
    date: n.date.toISOString(),
    media: n.media ?? null,
    animation: n.animation,
    actions: n.actions as Notification['actions'],
    read: row.readAt !== null,
  };
}

/** The caller's notifications, newest first; `unreadOnly` gives decision 6's pending list. */
export async function listNotifications({ db, actor, unreadOnly }: { db: Database; actor: RequestUser; unreadOnly: boolean }) {
  const keyOwnerOf = await repo.findOwnedOrganisationIds(db, actor.id);
  const principals = principalsOf({ ...actor, keyOwnerOf });
  const rows = await repo.findNotificationsFor(db, { userId: actor.id, principals, unreadOnly, limit: LIST_LIMIT });
  return rows.map(toWire);
}

/** Marks a notification addressed to the caller as read or unread. */
export async function markNotification({
  db,
  actor,
  notificationId,
  read,
}: {
  db: Database;
  actor: RequestUser;
  notificationId: string;
  read: boolean;
}) {
  const principals = principalsOf({ ...actor, keyOwnerOf: await repo.findOwnedOrganisationIds(db, actor.id) });
  assert(await repo.isAddressedTo(db, { notificationId, userId: actor.id, principals }), 'NOT_FOUND');
  await repo.setReadAt(db, { notificationId, userId: actor.id, readAt: read ? new Date() : null });
}
