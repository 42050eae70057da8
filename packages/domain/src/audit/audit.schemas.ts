import { z } from 'zod';
import { IdSchema } from '../common/api.schemas.js';
import { MAX_PAGE_SIZE } from '../common/constants.js';
import { PageQuerySchema, pageResultSchema } from '../common/page.schemas.js';

/** Audit trail pages hold this many events. */
export const AUDIT_PAGE_SIZE = 50;

/** What the audit trail calls each recorded action (an unknown one shows as recorded). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'view-as.start': 'View As User started',
  'view-as.end': 'View As User ended',
  'notification.send': 'Notification sent',
  'user.sign-up': 'Signed up',
  'user.register': 'Registered',
  'user.verify-email': 'Verified email',
  'user.update-profile': 'Updated profile',
  'user.change-password': 'Changed password',
  'user.change-org': 'Changed organization',
  'user.delete': 'Deleted account',
  'user.provisioned': 'Provisioned account',
  'license.accept': 'Accepted license',
  'integration.provision': 'Provisioned by integration',
  'invitation.create': 'Invited',
  'invitation.resend': 'Resent invitation',
  'invitation.revoke': 'Revoked invitation',
  'invitation.accept': 'Accepted invitation',
  'org.user.update': 'Updated member',
  'organisation.create': 'Created organization',
  'group.create': 'Created group',
  'group.update': 'Updated group',
  'group.change-owner': 'Changed key owner',
  'group.delete': 'Deleted group',
  'group.add-members': 'Added group members',
  'group.remove-members': 'Removed members',
  'group.leave': 'Left organization',
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

/** An action name as recorded: lower case words joined by dots and dashes. */
const ActionSchema = z
  .string()
  .max(60)
  .regex(/^[a-z][a-z.-]*$/, 'Invalid action');

/** The filters and page of an organisation's audit trail (its organisation is the path's). */
export const OrgAuditQuerySchema = PageQuerySchema.pick({ page: true }).extend({
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
  /** Events this person did, or did while viewing the product as someone else. */
  actorId: IdSchema.optional(),
  action: ActionSchema.optional(),
});
export type OrgAuditQuery = z.infer<typeof OrgAuditQuerySchema>;

/** The provider's audit trail: every organisation's, or one's. */
export const AuditQuerySchema = OrgAuditQuerySchema.extend({ orgId: IdSchema.optional() });
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

const PersonSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type AuditPerson = z.infer<typeof PersonSchema>;

export const AuditEventSchema = z.object({
  id: z.string(),
  action: z.string(),
  /** Who did it: the person signed in (the super admin, when viewing the product as someone). */
  actor: PersonSchema.nullable(),
  /** The person whose view of the product the actor was using, when viewing as a user. */
  viewingAs: PersonSchema.nullable(),
  target: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }).nullable(),
  organisation: z.object({ id: z.string(), name: z.string() }).nullable(),
  reason: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditPageSchema = pageResultSchema(AuditEventSchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;
