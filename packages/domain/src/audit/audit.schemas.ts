import { z } from 'zod';
import { IdSchema } from '../common/api.schemas.js';
import { MAX_PAGE_SIZE } from '../common/constants.js';
import { PageQuerySchema, pageResultSchema } from '../common/page.schemas.js';

/** Audit trail pages hold this many events. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * What the audit trail calls each action the server records. The writer accepts only these codes
 * (AuditAction), so a new code needs its label here first.
 */
export const AUDIT_ACTION_LABELS = {
  'view-as.start': 'View As User started',
  'view-as.end': 'View As User ended',
  'notification.send': 'Notification sent',
  'user.sign-up': 'Signed up',
  'user.register': 'Registered',
  'user.verify-email': 'Verified email',
  'user.update-profile': 'Updated profile',
  'user.change-password': 'Changed password',
  'user.two-factor.totp-enable': 'Set up authenticator app',
  'user.two-factor.totp-remove': 'Removed authenticator app',
  'user.two-factor.recovery-codes': 'Renewed recovery codes',
  'user.passkey.add': 'Added passkey',
  'user.passkey.remove': 'Removed passkey',
  'user.change-org': 'Changed organization',
  'user.reclaim-email': 'Reclaimed email address',
  'user.delete': 'Deleted account',
  'user.move': 'Moved to another organization',
  'user.provisioned': 'Provisioned account',
  'license.accept': 'Accepted license',
  'integration.provision': 'Provisioned by integration',
  'invitation.create': 'Invited',
  'invitation.resend': 'Resent invitation',
  'invitation.revoke': 'Revoked invitation',
  'invitation.accept': 'Accepted invitation',
  'invitation.decline': 'Declined invitation',
  'invitation.dismiss': 'Dismissed invitation',
  'org.user.update': 'Updated member',
  'org.user.sign-out': 'Signed member out everywhere',
  'org.two-factor.require': 'Changed second-factor requirement',
  'organisation.create': 'Created organization',
  'group.create': 'Created group',
  'group.update': 'Updated group',
  'group.change-owner': 'Changed key owner',
  'group.delete': 'Deleted group',
  'group.add-members': 'Added group members',
  'group.remove-members': 'Removed members',
  'group.leave': 'Left organization',
  'case.upsert': 'Saved case',
  'case.duplicate': 'Duplicated case',
  'case.remove': 'Deleted case',
  'case.bulk-remove': 'Deleted cases',
  'case.restore': 'Restored case',
  'case.publish': 'Published case',
  'case.unpublish': 'Unpublished case',
  'case.app-lab.add': 'Added case to App Lab',
  'case.app-lab.remove': 'Removed case from App Lab',
  'case.ec-update': 'Answered effect chain update',
  'case.copy': 'Copied cases between deployments',
  'case.peer-dump': 'Sent cases to another deployment',
  'media.receive': 'Received a media file from another deployment',
  'media.bulk-remove': 'Removed the media files of a failed copy',
  'application.register': 'Registered application',
  'application.remove': 'Removed application',
} as const satisfies Record<string, string>;

/** An action the server records. */
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action);
}

/** The readable name of an action; a code no longer written (older events) shows as recorded. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action;
}

/** What kinds of objects an event names as its target, and what the trail calls each kind. */
export const AUDIT_TARGET_TYPE_LABELS = {
  user: 'User',
  group: 'Group',
  case: 'Case',
  invitation: 'Invitation',
  notification: 'Notification',
  license: 'License',
  email: 'Email',
  media: 'Media file',
  application: 'Application',
} as const satisfies Record<string, string>;

export type AuditTargetType = keyof typeof AUDIT_TARGET_TYPE_LABELS;

/** The readable name of a target kind; an unknown one shows as recorded. */
export function auditTargetTypeLabel(type: string): string {
  return Object.hasOwn(AUDIT_TARGET_TYPE_LABELS, type) ? AUDIT_TARGET_TYPE_LABELS[type as AuditTargetType] : type;
}

/** An action name as recorded: lower case words joined by dots and dashes. */
const ActionSchema = z
  .string()
  .max(60)
  .regex(/^[a-z][a-z.-]*$/, 'Invalid action');

/** The trail screen opens on this many days back from today (UX: default 90 days). */
export const AUDIT_DEFAULT_DAYS = 90;

/**
 * An instant with its UTC offset, as the browser builds it from a local day
 * (`2026-03-31T23:59:59.999+02:00`): the offset keeps the day the person chose, for the file name.
 */
const InstantSchema = z.iso.datetime({ offset: true });

/** The filters both trails share: actor, action and a date range (both ends included). */
const filterShape = {
  /** Events this person did, or did while viewing the product as someone else. */
  actorId: IdSchema.optional(),
  action: ActionSchema.optional(),
  /** The first instant included. */
  from: InstantSchema.optional(),
  /** The last instant included. */
  to: InstantSchema.optional(),
};

const FROM_AFTER_TO_MESSAGE = 'The start of the date range is after its end.';

/** Refuses a range whose start comes after its end. */
function withOrderedRange<T extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(schema: T) {
  return schema.refine((query) => !query.from || !query.to || Date.parse(query.from) <= Date.parse(query.to), {
    message: FROM_AFTER_TO_MESSAGE,
    path: ['from'],
  });
}

const pageShape = {
  ...PageQuerySchema.pick({ page: true }).shape,
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
};

/** The filters and page of an organisation's audit trail (its organisation is the path's). */
export const OrgAuditQuerySchema = withOrderedRange(z.object({ ...pageShape, ...filterShape }));
export type OrgAuditQuery = z.infer<typeof OrgAuditQuerySchema>;

/** The provider's audit trail: every organisation's, or one's. */
export const AuditQuerySchema = withOrderedRange(z.object({ ...pageShape, ...filterShape, orgId: IdSchema.optional() }));
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** The same filters for a CSV export of an organisation's trail: every matching event, no pages. */
export const OrgAuditExportQuerySchema = withOrderedRange(z.object(filterShape));
export type OrgAuditExportQuery = z.infer<typeof OrgAuditExportQuerySchema>;

/** The same filters for a CSV export of the provider's trail. */
export const AuditExportQuerySchema = withOrderedRange(z.object({ ...filterShape, orgId: IdSchema.optional() }));
export type AuditExportQuery = z.infer<typeof AuditExportQuerySchema>;

/**
 * The export's file name: the trail and its date range as the person chose it (the dates as
 * written in the query, in their time zone), `audit-trail-2026-01-01-to-2026-03-31.csv`.
 */
export function auditExportFileName(query: { from?: string | undefined; to?: string | undefined }, today: Date): string {
  const from = query.from?.slice(0, 10);
  const to = query.to?.slice(0, 10) ?? today.toISOString().slice(0, 10);
  return from ? `audit-trail-${from}-to-${to}.csv` : `audit-trail-to-${to}.csv`;
}

/** The columns of an audit trail CSV export, in order. */
export const AUDIT_CSV_HEADER = [
  'Time (UTC)',
  'Actor',
  'Actor email',
  'Viewing as',
  'Viewing as email',
  'Action',
  'Target type',
  'Target',
  'Organization',
  'Reason',
] as const;

const PersonSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type AuditPerson = z.infer<typeof PersonSchema>;

export const AuditEventSchema = z.object({
  id: z.string(),
  action: z.string(),
  /** Who did it: the person signed in (the super admin, when viewing the product as someone). */
  actor: PersonSchema.nullable(),
  /** The person whose view of the product the actor was using, when viewing as a user. */
  viewingAs: PersonSchema.nullable(),
  /**
   * What it was done to. `label` is the name stored when the event was written, so it stays after
   * the object is deleted; `id` is null for an action on several objects (the label names them).
   */
  target: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }).nullable(),
  organisation: z.object({ id: z.string(), name: z.string() }).nullable(),
  reason: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditPageSchema = pageResultSchema(AuditEventSchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;
