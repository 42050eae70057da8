import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A file the server serves itself (tutorial videos, notification images). */
export const media = pgTable('media', {
  id: text('id').primaryKey(),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  /** Path relative to the server's media directory. */
  path: text('path').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const tutorial = pgTable('tutorial', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  mediaId: text('media_id')
    .notNull()
    .references(() => media.id, { onDelete: 'cascade' }),
  category: text('category').notNull(),
  /** Null: for every product type. */
  productType: text('product_type'),
  ordinal: integer('ordinal').notNull().default(0),
});
