import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The extensions the migrations need, loaded into every embedded database: pg_trgm (user, member
 * and group searches run on trigram indexes, never by loading a table). btree_gin is left out on
 * purpose: loaded next to pg_trgm in the embedded engine, pg_trgm's similarity operator stops
 * answering; migration 0005 indexes member searches without it there.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };
