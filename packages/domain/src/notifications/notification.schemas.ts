import { z } from 'zod';
import { ID_PATTERN, INVALID_ID_MESSAGE, TextSchema } from '../common/api.schemas.js';
import { NOTIFICATION_BODY_MAX, NOTIFICATION_HEADER_MAX } from '../common/constants.js';

export const NOTIFICATION_TYPES = ['POPUP_MESSAGE', 'INFO'] as const;
export const ACTION_TYPES = ['URL', 'DISMISS', 'CASE_LINK', 'ACCEPT_INVITE', 'DISMISS_INVITE', 'EVENT_HUB'] as const;
export const NOTIFICATION_COLORS = ['red', '#ff8000', '#ffb300', '#018786', '#50ccd5', '#5450d5', '#b329e3', '#d550c3'] as const;
export const PSEUDO_GROUPS = ['ALL_ADMINS', 'ALL_INSTRUCTORS', 'ALL_USERS', 'ALL_STUDENTS', 'ALL_KEYOWNERS'] as const;

/** Whether a JSON value holds NUL in any key or string. */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNul(item));
  }
  return false;
}

export const NotificationActionSchema = z.object({
  label: TextSchema.max(60),
  type: z.enum(ACTION_TYPES),
  // Stored as jsonb, which cannot hold NUL either.
  metadata: z
    .record(z.string(), z.unknown())
    .refine((metadata) => !hasNul(metadata), 'Must not contain NUL characters')
    .optional(),
});
export type NotificationAction = z.infer<typeof NotificationActionSchema>;

export const NotificationTargetSchema = z.object({
  principalType: z.enum(['GROUP', 'USER']),
  principalId: z.string().min(1).max(80).regex(ID_PATTERN, INVALID_ID_MESSAGE),
  label: TextSchema.max(200).optional(),
});
export type NotificationTarget = z.infer<typeof NotificationTargetSchema>;

export const NotificationSchema = z.object({
  _id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  color: z.string(),
  date: z.string(),
  media: z.object({ type: z.literal('IMAGE'), url: z.string() }).nullable(),
  animation: z.string().nullable(),
  actions: z.array(NotificationActionSchema),
  read: z.boolean(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListResponseSchema = z.object({ data: z.object({ notifications: z.array(NotificationSchema) }) });

export const NewNotificationBodySchema = z.object({
  type: z.enum(NOTIFICATION_TYPES).default('POPUP_MESSAGE'),
  title: TextSchema.trim().min(1).max(NOTIFICATION_HEADER_MAX),
  message: TextSchema.trim().min(1).max(NOTIFICATION_BODY_MAX),
  color: z.enum(NOTIFICATION_COLORS).default('red'),
  actions: z.array(NotificationActionSchema).max(3).default([]),
  targets: z.array(NotificationTargetSchema).min(1).max(50),
});
