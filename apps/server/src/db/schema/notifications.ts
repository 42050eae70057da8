import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.js';

export type NotificationAction = { label: string; type: string; metadata?: Record<string, unknown> };
export type NotificationMedia = { type: 'IMAGE'; url: string };

export const notification = pgTable(
  'notification',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    color: text('color').notNull().default('red'),
    media: jsonb('media').$type<NotificationMedia | null>(),
    animation: text('animation'),
    actions: jsonb('actions').$type<NotificationAction[]>().notNull().default([]),
    senderId: text('sender_id').references(() => user.id, { onDelete: 'set null' }),
    date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notification_date_idx').on(t.date)],
);

/** Who a notification is for: a GROUP (an organisation, sub-group or pseudo group) or a USER. */
export const notificationTarget = pgTable(
  'notification_target',
  {
    notificationId: text('notification_id')
      .notNull()
      .references(() => notification.id, { onDelete: 'cascade' }),
    principalType: text('principal_type').notNull(),
    principalId: text('principal_id').notNull(),
    label: text('label'),
  },
  (t) => [
    primaryKey({ columns: [t.notificationId, t.principalType, t.principalId] }),
    index('notification_target_principal_idx').on(t.principalType, t.principalId),
  ],
);

export const notificationReceipt = pgTable(
  'notification_receipt',
  {
    notificationId: text('notification_id')
      .notNull()
      .references(() => notification.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);
