import { buildPageResult, pageOffset } from '@patientsim/domain/common/page.schemas';
import { displayGroupName } from '@patientsim/domain/groups/group.schemas';
import {
  ALL_USERS_CATEGORIES,
  type Notification,
  type NotificationTarget,
  ORG_CATEGORIES,
  PSEUDO_GROUPS,
  type SentNotificationPage,
  type SentNotificationsQuery,
  type NewNotificationBodySchema,
  organisationOfRoleGroup,
} from '@patientsim/domain/notifications/notification.schemas';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import type { ReadCache } from '../../lib/read-cache.js';
import { auditAs } from '../../lib/audit.js';
import { AppError, assert } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { ownedOrganisationIdsOf, principalsOf } from '../../identity/principals.js';
import type { RequestUser } from '../../lib/access.js';
import { findGroupsByIds } from '../organisations/organisations.service.js';
import { findUserSummaries } from '../users/users.service.js';
import * as repo from './notifications.repository.js';

const LIST_LIMIT = 100;

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
export async function listNotifications({
  db,
  cache,
  actor,
  unreadOnly,
}: {
  db: Database;
  cache: ReadCache;
  actor: RequestUser;
  unreadOnly: boolean;
}) {
  const keyOwnerOf = await ownedOrganisationIdsOf({ db, cache }, actor.id);
  const principals = principalsOf({ ...actor, keyOwnerOf });
  const rows = await repo.findNotificationsFor(db, { userId: actor.id, principals, unreadOnly, limit: LIST_LIMIT });
  return rows.map(toWire);
}

/** Marks a notification addressed to the caller as read or unread. */
export async function markNotification({
  db,
  cache,
  actor,
  notificationId,
  read,
}: {
  db: Database;
  cache: ReadCache;
  actor: RequestUser;
  notificationId: string;
  read: boolean;
}) {
  const principals = principalsOf({ ...actor, keyOwnerOf: await ownedOrganisationIdsOf({ db, cache }, actor.id) });
  assert(await repo.isAddressedTo(db, { notificationId, userId: actor.id, principals }), 'NOT_FOUND');
  await repo.setReadAt(db, { notificationId, userId: actor.id, readAt: read ? new Date() : null });
}

type NewNotification = z.output<typeof NewNotificationBodySchema>;
type LabelledTarget = NotificationTarget & { label: string };

const PSEUDO_LABELS: Record<string, string> = Object.fromEntries(ALL_USERS_CATEGORIES.map((c) => [c.id, c.label]));
const orgCategoryLabel = (suffix: string) => ORG_CATEGORIES.find((c) => c.suffix === suffix)?.label ?? suffix;

/** "Given Family (e-mail)", or the e-mail alone (the target picker's user label, spec section 2). */
function personLabel(person: { email: string; given_name: string; family_name: string }): string {
  const name = `${person.given_name} ${person.family_name}`.trim();
  return name ? `${name} (${person.email})` : person.email;
}

/**
 * The targets without duplicates, each checked to exist and labelled from what is stored (never
 * from the sender's label): a user who is not deleted; a pseudo group; an organisation's admins or
 * instructors; an organisation or sub-group. An unknown one is NOT_FOUND, and nothing is stored.
 */
async function labelTargets(db: Database, targets: readonly NotificationTarget[]): Promise<LabelledTarget[]> {
  const unique = [...new Map(targets.map((t) => [`${t.principalType}:${t.principalId}`, t])).values()];
  const userIds = unique.filter((t) => t.principalType === 'USER').map((t) => t.principalId);
  const groupIds = unique
    .filter((t) => t.principalType === 'GROUP' && !(PSEUDO_GROUPS as readonly string[]).includes(t.principalId))
    .map((t) => organisationOfRoleGroup(t.principalId)?.orgId ?? t.principalId);
  const [people, groups] = await Promise.all([
    findUserSummaries(db, { ids: userIds, orgIds: null, limit: userIds.length }),
    findGroupsByIds(db, [...new Set(groupIds)]),
  ]);
  const personById = new Map(people.filter((p) => !p.deletedAt).map((p) => [p.user_id, p]));
  const groupById = new Map(groups.map((g) => [g.id, g]));
  return unique.map((target) => {
    const label = labelOf(target, personById, groupById);
    if (label === null) throw new AppError('NOT_FOUND', { message: `Unknown notification target: ${target.principalId}` });
    return { principalType: target.principalType, principalId: target.principalId, label };
  });
}

function labelOf(
  target: NotificationTarget,
  personById: Map<string, { email: string; given_name: string; family_name: string }>,
  groupById: Map<string, { name: string; parentId: string | null }>,
): string | null {
  if (target.principalType === 'USER') {
    const person = personById.get(target.principalId);
    return person ? personLabel(person) : null;
  }
  const pseudo = PSEUDO_LABELS[target.principalId];
  if (pseudo) return pseudo;
  const roleGroup = organisationOfRoleGroup(target.principalId);
  const found = groupById.get(roleGroup?.orgId ?? target.principalId);
  if (!found) return null;
  if (!roleGroup) return displayGroupName(found.name);
  // Admins and instructors are an organisation's, never a sub-group's.
  return found.parentId === null ? `${displayGroupName(found.name)}: ${orgCategoryLabel(roleGroup.suffix)}` : null;
}

/**
 * Sends an announcement (spec section 7, `POST /notifications`): the notification and its checked
 * targets in one transaction with its audit event. Who it reaches is decided when it is read
 * (principalsOf), so people who join a targeted group later see it too.
 */
export async function sendNotification({
  db,
  actor,
  body,
  ip,
}: {
  db: Database;
  actor: RequestUser;
  body: NewNotification;
  ip: string;
}): Promise<Notification> {
  const targets = await labelTargets(db, body.targets);
  const id = newId();
  const date = new Date();
  await db.transaction(async (tx) => {
    await repo.insertNotification(tx, {
      id,
      type: body.type,
      title: body.title,
      message: body.message,
      color: body.color,
      media: body.media,
      animation: body.animation,
      actions: body.actions,
      senderId: actor.id,
      date,
    });
    await repo.insertTargets(
      tx,
      targets.map((target) => ({ notificationId: id, ...target })),
    );
    await auditAs(tx, actor, {
      action: 'notification.send',
      targetType: 'notification',
      targetId: id,
      ipAddress: ip,
      details: { title: body.title, targets: targets.map((t) => t.label) },
    });
  });
  return {
    _id: id,
    type: body.type,
    title: body.title,
    message: body.message,
    color: body.color,
    date: date.toISOString(),
    media: body.media,
    animation: body.animation,
    actions: body.actions,
    read: false,
  };
}

/** The announcements sent so far, newest first, each with how many of the people it reaches have read it. */
export async function listSentNotifications({
  db,
  query,
}: {
  db: Database;
  query: SentNotificationsQuery;
}): Promise<SentNotificationPage> {
  const [total, rows] = await Promise.all([
    repo.countSentNotifications(db),
    repo.findSentNotificationsPage(db, { offset: pageOffset(query), limit: query.pageSize }),
  ]);
  const targets = await repo.findTargetsOf(
    db,
    rows.map((row) => row.notification.id),
  );
  const items = await Promise.all(
    rows.map(async (row) => {
      const own = targets.filter((t) => t.notificationId === row.notification.id);
      const principals = own.map((t) => ({ principalType: t.principalType as 'GROUP' | 'USER', principalId: t.principalId }));
      const { audience, readCount } = await repo.countAudience(db, { notificationId: row.notification.id, targets: principals });
      const { read: _read, ...notification } = toWire({ notification: row.notification, readAt: null });
      const senderName = `${row.senderGivenName ?? ''} ${row.senderFamilyName ?? ''}`.trim() || (row.senderEmail ?? '');
      return {
        notification,
        targets: own.map((t) => ({
          principalType: t.principalType as 'GROUP' | 'USER',
          principalId: t.principalId,
          label: t.label ?? t.principalId,
        })),
        sender: row.notification.senderId ? { id: row.notification.senderId, name: senderName } : null,
        audience,
        readCount,
      };
    }),
  );
  return buildPageResult(query, total, items);
}
