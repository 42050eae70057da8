import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Append-only record of who did what, on whose behalf when impersonating. */
export const auditEvent = pgTable(
  'audit_event',
  {
    id: text('id').primaryKey(),
    actorId: text('actor_id'),
    /** The super admin behind a View-As-User session. */
    onBehalfOfId: text('on_behalf_of_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** The target's name when the event was written: the trail shows it after the target is deleted. */
    targetName: text('target_name'),
    orgId: text('org_id'),
    ipAddress: text('ip_address'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_actor_idx').on(t.actorId),
    // The trail lists newest first: every organisation's, one organisation's, or what one super admin did while viewing as someone.
    index('audit_created_idx').on(t.createdAt),
    index('audit_org_created_idx').on(t.orgId, t.createdAt),
    index('audit_on_behalf_of_idx').on(t.onBehalfOfId),
  ],
);
