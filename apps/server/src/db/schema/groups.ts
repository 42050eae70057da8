import { type AnyPgColumn, boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.js';

/** An organisation (parent_id null) or a sub-group (class). */
export const group = pgTable(
  'group',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    parentId: text('parent_id').references((): AnyPgColumn => group.id, { onDelete: 'cascade' }),
    /** The key owner (organisation) or group admin (sub-group). */
    ownerId: text('owner_id').references(() => user.id, { onDelete: 'set null' }),
    seats: integer('seats').notNull().default(0),
    productType: text('product_type').notNull().default('EMS'),
    dev: boolean('dev').notNull().default(false),
    testing: boolean('testing').notNull().default(false),
    debug: boolean('debug').notNull().default(false),
    ai: boolean('ai').notNull().default(false),
    inactive: boolean('inactive').notNull().default(false),
    /** Set on the three template organisations: the product type whose templates it holds. */
    templatesFor: text('templates_for'),
    /** Set on the public content organisation of a product type. */
    contentFor: text('content_for'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('group_parent_idx').on(t.parentId),
    index('group_name_idx').on(t.name),
    // Fuzzy group search (PGlite has no autovacuum: without fastupdate off the planner ignores it).
    index('group_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

export const groupMember = pgTable(
  'group_member',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => group.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Organisation-specific role; overrides the global role there. */
    role: text('role'),
    subscribed: boolean('subscribed').notNull().default(false),
    /** Set when the member was removed (archived for grading). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_member_user_idx').on(t.userId)],
);
