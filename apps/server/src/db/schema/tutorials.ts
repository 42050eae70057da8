import { customType, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite answers a Uint8Array, node-postgres a Buffer.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A file the server serves itself (tutorial videos, notification images, case pictures). Either a
 * file shipped with the server (`path`) or bytes another deployment's Cases tool sent with a copied
 * case (`content`, in the database so that every server process serves it; decision 0041).
 */
export const media = pgTable('media', {
  id: text('id').primaryKey(),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  /** Path relative to the server's media directory; null for received media. */
  path: text('path'),
  /** The bytes of a file received from another deployment; null for a shipped file. */
  content: bytea('content'),
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
