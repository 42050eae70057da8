import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth.js';
import { group } from './groups.js';

export type CaseAccessList = { groups: string[]; users: string[]; roles: string[]; productType: string[] };
export type CaseAccess = {
  owner: string | null;
  ownerOrg: string | null;
  read: CaseAccessList;
  write: CaseAccessList;
  run: CaseAccessList;
  share: CaseAccessList;
};

/**
 * The fields of a case document the case list answers (the GraphQL fields of a case that come from
 * its document), kept apart by the database (`list_document`) so that a page of the list reads and
 * parses none of the rest of the documents.
 */
export type CaseListDocument = {
  tags?: unknown;
  dispatch?: unknown;
  _avatar?: unknown;
  _startLocation?: unknown;
  _endLocation?: unknown;
  outdatedMedications?: unknown;
  outdatedEcNodes?: unknown;
  shares?: unknown;
  timed_access?: unknown;
};

/** The case document as JSONB, plus the columns the list sorts and filters on. */
export const caseConfiguration = pgTable(
  'case_configuration',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    /** What the list answers of the document, computed by the database from it (migration 0010). */
    listDocument: jsonb('list_document').$type<CaseListDocument>().generatedAlwaysAs(sql`case_list_document(document)`),
    access: jsonb('access').$type<CaseAccess>().notNull(),
    ownerId: text('owner_id').references(() => user.id, { onDelete: 'set null' }),
    ownerOrgId: text('owner_org_id').references(() => group.id, { onDelete: 'set null' }),
    /**
     * Flattened read/run principals for access filtering (modules/cases/case-access.ts): group ids,
     * pseudo groups, user ids, `role:<ROLE>`, `productType:<TYPE>`, and the timed-access grants.
     */
    readers: text('readers').array().notNull().default([]),
    avatarName: text('avatar_name'),
    startLocationName: text('start_location_name'),
    endLocationName: text('end_location_name'),
    origin: text('origin'),
    isTemplate: boolean('is_template').notNull().default(false),
    published: boolean('published').notNull().default(false),
    applab: boolean('applab').notNull().default(false),
    needsEcUpdate: boolean('needs_ec_update').notNull().default(false),
    ignoreEcUpdate: boolean('ignore_ec_update').notNull().default(false),
    updateStatus: text('update_status'),
    errorsCount: integer('errors_count').notNull().default(0),
    warningsCount: integer('warnings_count').notNull().default(0),
    searchableText: text('searchable_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('case_owner_org_idx').on(t.ownerOrgId),
    index('case_readers_idx').using('gin', t.readers).with({ fastupdate: false }),
    // Each sort of the list reads one of these in order and stops after a page (decision 0025); the
    // text keys are coalesced so that the cursor compares plain values.
    index('case_created_idx').on(t.createdAt, t.id),
    index('case_name_sort_idx').on(t.name, t.id),
    index('case_avatar_sort_idx').on(sql`coalesce(${t.avatarName}, '')`, t.id),
    index('case_start_sort_idx').on(sql`coalesce(${t.startLocationName}, '')`, t.id),
    index('case_end_sort_idx').on(sql`coalesce(${t.endLocationName}, '')`, t.id),
    index('case_published_sort_idx').on(t.published, t.id),
    index('case_applab_sort_idx').on(t.applab, t.id),
    index('case_attention_sort_idx').on(t.needsEcUpdate, t.errorsCount, t.id),
    index('case_owner_idx').on(t.ownerId, t.id),
    index('case_template_idx').on(t.ownerOrgId, t.isTemplate, t.name),
    // Search over name, tags and the searchable text (all in searchable_text, lower case).
    index('case_search_trgm_idx').using('gin', t.searchableText.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

export const caseFavorite = pgTable(
  'case_favorite',
  {
    caseId: text('case_id')
      .notNull()
      .references(() => caseConfiguration.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.userId] }), index('case_favorite_user_idx').on(t.userId)],
);

export const caseShare = pgTable(
  'case_share',
  {
    id: text('id').primaryKey(),
    caseId: text('case_id')
      .notNull()
      .references(() => caseConfiguration.id, { onDelete: 'cascade' }),
    /** user or group */
    shareType: text('share_type').notNull(),
    fromId: text('from_id').notNull(),
    toId: text('to_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('case_share_case_idx').on(t.caseId), index('case_share_to_idx').on(t.toId)],
);

/** Per user and case: plays and last played / last opened. */
export const casePlay = pgTable(
  'case_play',
  {
    caseId: text('case_id')
      .notNull()
      .references(() => caseConfiguration.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    plays: integer('plays').notNull().default(0),
    lastPlayed: timestamp('last_played', { withTimezone: true }),
    lastAccessed: timestamp('last_accessed', { withTimezone: true }),
    /**
     * Whether the case needs attention (an update pending or errors counted), copied from the case by
     * the database (migration 0012's triggers): the default order finds the caller's played cases
     * that need attention through this copy's index, not by joining all of the caller's plays.
     */
    caseAttention: boolean('case_attention').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.caseId, t.userId] }),
    index('case_play_user_idx').on(t.userId),
    // A caller's plays in the order of Last Opened / Last Played (the case list reads a page of them).
    index('case_play_accessed_order_idx').on(t.userId, t.lastAccessed, t.caseId).where(sql`${t.lastAccessed} is not null`),
    index('case_play_played_order_idx').on(t.userId, t.lastPlayed, t.caseId).where(sql`${t.lastPlayed} is not null`),
    // A caller's opened cases that need attention (the default order's first rows).
    index('case_play_attention_idx').on(t.userId, t.caseId).where(sql`${t.caseAttention} and ${t.lastAccessed} is not null`),
  ],
);
