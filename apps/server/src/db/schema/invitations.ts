import type { Role } from '@patientsim/domain/roles/roles';
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.js';
import { group } from './groups.js';

export const invitation = pgTable(
  'invitation',
  {
    id: text('id').primaryKey(),
    /** Null for an unaffiliated sign-up invitation (decision 9). */
    orgId: text('org_id').references(() => group.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<Role>().notNull().default('STUDENT'),
    /** Account type chosen on plain sign-up. */
    productType: text('product_type'),
    throughSubscription: boolean('through_subscription').notNull().default(false),
    groupIds: jsonb('group_ids').$type<string[]>().notNull().default([]),
    tokenHash: text('token_hash').notNull().unique(),
    inviterId: text('inviter_id').references(() => user.id, { onDelete: 'set null' }),
    /** pending, accepted, declined, dismissed */
    status: text('status').notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invitation_email_idx').on(t.email), index('invitation_org_idx').on(t.orgId)],
);
