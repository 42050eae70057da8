import type { Role } from '@patientsim/domain/roles/roles';
import { sql } from 'drizzle-orm';
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
    /**
     * Set on the App Lab organisation of a product type: the product type whose App Lab users read
     * and run templates through it (spec section 4).
     */
    appLabFor: text('app_lab_for'),
    /** A free-text description its key owner (or a group's admin) writes; empty when none. */
    about: text('about').notNull().default(''),
    /**
     * An organisation's roles whose members must sign in with a second factor (decision 0066);
     * empty when none. Sub-groups keep it empty: the organisation's applies to all of its members.
     */
    twoFactorRoles: text('two_factor_roles').array().$type<Role[]>().notNull().default(sql`'{}'::text[]`),
    /**
     * How many memberships of this group are active, active and subscribed, and removed (archived):
     * kept by a database trigger on group_member in the transaction of every write (migration 0005),
     * so a member list's page count never counts a large group's rows.
     */
    memberCount: integer('member_count').notNull().default(0),
    subscribedMemberCount: integer('subscribed_member_count').notNull().default(0),
    removedMemberCount: integer('removed_member_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('group_parent_idx').on(t.parentId),
    // The organisations a person is key owner of (their principals, on every case list page).
    index('group_owner_idx').on(t.ownerId).where(sql`${t.parentId} is null`),
    index('group_name_idx').on(t.name),
    index('group_app_lab_for_idx').on(t.appLabFor),
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
    role: text('role').$type<Role>(),
    subscribed: boolean('subscribed').notNull().default(false),
    /** Set when the member was removed (archived for grading). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Copies of the member's e-mail and names, the keys a member list sorts and searches on, so
     * that a group's page, count and search read its own memberships only. Database triggers keep
     * them equal to the user's, in the transaction of the write (migration 0004).
     */
    userEmail: text('user_email').notNull().default(''),
    userGivenName: text('user_given_name').notNull().default(''),
    userFamilyName: text('user_family_name').notNull().default(''),
    /**
     * The three copies lower-cased, one per line: a search matches `lower(%term%)` with LIKE here,
     * which is what ILIKE does on each of them, without lower-casing every row at query time.
     */
    userSearch: text('user_search')
      .notNull()
      .generatedAlwaysAs(sql`lower(user_family_name || chr(10) || user_given_name || chr(10) || user_email)`),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    index('group_member_user_idx').on(t.userId),
    // A group's members in list order, with what the list filters on: pages within a group are
    // index-only scans of the group's range (searches use the trigram index below).
    index('group_member_listing_idx').on(
      t.groupId,
      t.userFamilyName,
      t.userGivenName,
      t.userEmail,
      t.userId,
      t.removedAt,
      t.subscribed,
      t.role,
    ),
    // A search within a group: the group's trigram matches only (btree_gin puts the group id in
    // the same index), whatever the size of the group or of the whole table. Without fastupdate
    // off the embedded engine (no autovacuum) would leave new rows in the pending list. The
    // embedded engine has no btree_gin: migration 0005 gives it the trigrams alone.
    index('group_member_search_idx').using('gin', t.groupId, t.userSearch.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);
