import { z } from 'zod';
import { ID_PATTERN, INVALID_ID_MESSAGE, IdSchema, TextSchema } from '../common/api.schemas.js';
import { MAX_PAGE_SIZE, NOTIFICATION_BODY_MAX, NOTIFICATION_HEADER_MAX } from '../common/constants.js';
import { PageQuerySchema, pageResultSchema } from '../common/page.schemas.js';

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

/** What the target picker offers for every user at once (spec sections 4 and 6): 'Everyone' is ALL_USERS. */
export const ALL_USERS_CATEGORIES = [
  { id: 'ALL_USERS', label: 'Everyone' },
  { id: 'ALL_ADMINS', label: 'All admins' },
  { id: 'ALL_INSTRUCTORS', label: 'All instructors' },
  { id: 'ALL_STUDENTS', label: 'All students' },
  { id: 'ALL_KEYOWNERS', label: 'All key owners' },
] as const satisfies ReadonlyArray<{ id: (typeof PSEUDO_GROUPS)[number]; label: string }>;

/**
 * What it offers within one organisation: everyone in it (the organisation's own id), or its
 * admins or instructors (the pseudo groups {orgId}_ADMINS and {orgId}_INSTRUCTORS).
 */
export const ORG_CATEGORIES = [
  { suffix: '', label: 'Everyone' },
  { suffix: '_ADMINS', label: 'Admins' },
  { suffix: '_INSTRUCTORS', label: 'Instructors' },
] as const;
export type OrgCategorySuffix = (typeof ORG_CATEGORIES)[number]['suffix'];

/** The group id of an organisation category: `{orgId}`, `{orgId}_ADMINS` or `{orgId}_INSTRUCTORS`. */
export function orgCategoryGroupId(orgId: string, suffix: OrgCategorySuffix): string {
  return `${orgId}${suffix}`;
}

/** The organisation behind `{orgId}_ADMINS` or `{orgId}_INSTRUCTORS`, or null for any other id. */
export function organisationOfRoleGroup(groupId: string): { orgId: string; suffix: '_ADMINS' | '_INSTRUCTORS' } | null {
  const match = /^(.+)(_ADMINS|_INSTRUCTORS)$/.exec(groupId);
  if (!match?.[1] || (PSEUDO_GROUPS as readonly string[]).includes(groupId)) return null;
  return { orgId: match[1], suffix: match[2] as '_ADMINS' | '_INSTRUCTORS' };
}

/** The role pseudo groups 'Everyone' (ALL_USERS) cannot be combined with, and the reverse. */
const ROLE_PSEUDO_GROUPS: readonly string[] = PSEUDO_GROUPS.filter((id) => id !== 'ALL_USERS');

/**
 * Whether a set of targets mixes 'Everyone' with specific roles (spec section 4): ALL_USERS with
 * ALL_ADMINS and the like, or an organisation with its own admins or instructors.
 */
export function mixesEveryoneWithRoles(
  targets: ReadonlyArray<Pick<NotificationTarget, 'principalType' | 'principalId'>>,
): boolean {
  const groups = new Set(targets.filter((t) => t.principalType === 'GROUP').map((t) => t.principalId));
  if (groups.has('ALL_USERS') && ROLE_PSEUDO_GROUPS.some((id) => groups.has(id))) return true;
  return [...groups].some((id) => {
    const roleGroup = organisationOfRoleGroup(id);
    return roleGroup !== null && groups.has(roleGroup.orgId);
  });
}

/** A link a notification action opens: a path of this site or an http(s) address. */
const LinkSchema = TextSchema.trim()
  .max(2000)
  .refine(
    (url) => /^\/(?!\/)/.test(url) || /^https?:\/\/[^\s]+$/i.test(url),
    'Must be a path of this site or an http(s) address',
  );

/** A file the popup shows: one the server serves (/media/{id}) or an https address. */
const MediaUrlSchema = TextSchema.trim()
  .max(2000)
  .refine(
    (url) => /^\/media\/[A-Za-z0-9_-]+$/.test(url) || /^https:\/\/[^\s]+$/i.test(url),
    'Must be a /media/ path or an https address',
  );

const ActionLabelSchema = TextSchema.trim().min(1).max(60);

/**
 * The actions an announcement may carry (spec section 3): a link (URL), a case (CASE_LINK), a
 * dismiss button, or an event for the page (EVENT_HUB). Answering an invitation belongs to the
 * invitations themselves, never to an announcement.
 */
export const SentNotificationActionSchema = z.discriminatedUnion('type', [
  z.object({ label: ActionLabelSchema, type: z.literal('URL'), metadata: z.object({ url: LinkSchema }) }),
  z.object({ label: ActionLabelSchema, type: z.literal('CASE_LINK'), metadata: z.object({ caseId: IdSchema }) }),
  z.object({ label: ActionLabelSchema, type: z.literal('DISMISS') }),
  z.object({
    label: ActionLabelSchema,
    type: z.literal('EVENT_HUB'),
    metadata: z.object({
      event: z.string().regex(/^[a-z][a-z0-9-]{0,59}$/, 'Invalid event'),
      args: z
        .record(z.string(), z.unknown())
        .refine((args) => !hasNul(args), 'Must not contain NUL characters')
        .refine((args) => JSON.stringify(args).length <= 2000, 'Too large')
        .optional(),
    }),
  }),
]);
export type SentNotificationAction = z.infer<typeof SentNotificationActionSchema>;

/** Most targets one announcement names. */
export const NOTIFICATION_TARGETS_MAX = 50;

/** POST /notifications (spec section 7): the whole announcement, checked before anything is stored. */
export const NewNotificationBodySchema = z
  .object({
    type: z.enum(NOTIFICATION_TYPES).default('POPUP_MESSAGE'),
    title: TextSchema.trim().min(1).max(NOTIFICATION_HEADER_MAX),
    message: TextSchema.trim().min(1).max(NOTIFICATION_BODY_MAX),
    color: z.enum(NOTIFICATION_COLORS).default('red'),
    media: z
      .object({ type: z.literal('IMAGE'), url: MediaUrlSchema })
      .nullable()
      .default(null),
    animation: z
      .union([z.literal('confetti'), MediaUrlSchema])
      .nullable()
      .default(null),
    actions: z.array(SentNotificationActionSchema).max(3).default([]),
    targets: z.array(NotificationTargetSchema).min(1).max(NOTIFICATION_TARGETS_MAX),
  })
  .refine((body) => !mixesEveryoneWithRoles(body.targets), {
    path: ['targets'],
    message: "'Everyone' cannot be combined with specific roles",
  });
export type NewNotificationBody = z.input<typeof NewNotificationBodySchema>;

export const SentNotificationResponseSchema = z.object({ data: z.object({ notification: NotificationSchema }) });

/** An announcement as its senders list it: the notification, its targets, and how many of its people read it. */
export const SentNotificationSchema = z.object({
  notification: NotificationSchema.omit({ read: true }),
  targets: z.array(NotificationTargetSchema.extend({ label: z.string() })),
  sender: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The people its targets reach now (groups are resolved when read, so this can grow). */
  audience: z.number().int().min(0),
  /** How many of them have read it. */
  readCount: z.number().int().min(0),
});
export type SentNotification = z.infer<typeof SentNotificationSchema>;

export const SENT_NOTIFICATIONS_PAGE_SIZE = 20;
export const SentNotificationsQuerySchema = PageQuerySchema.pick({ page: true }).extend({
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(SENT_NOTIFICATIONS_PAGE_SIZE),
});
export type SentNotificationsQuery = z.infer<typeof SentNotificationsQuerySchema>;
export const SentNotificationPageSchema = pageResultSchema(SentNotificationSchema);
export type SentNotificationPage = z.infer<typeof SentNotificationPageSchema>;
