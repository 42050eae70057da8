import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE_USERS, SEARCH_MIN_LENGTH } from './constants.js';
import { TextSchema } from './api.schemas.js';

export const SEARCH_TOO_SHORT_MESSAGE = `Enter at least ${SEARCH_MIN_LENGTH} characters to search`;

/**
 * A search term as typed: trimmed; shorter than SEARCH_MIN_LENGTH is refused (the web never sends
 * one, spec section 5), and an empty one means no search.
 */
export const SearchTermSchema = TextSchema.max(200)
  .transform((value) => value.trim())
  .refine((value) => value.length === 0 || value.length >= SEARCH_MIN_LENGTH, SEARCH_TOO_SHORT_MESSAGE)
  .transform((value) => (value.length === 0 ? undefined : value));

/** A page of a list: 0-based page, page size, an optional explicit offset and search term (query strings). */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE_USERS),
  /** Overrides page × pageSize when a caller pages by rows. */
  offset: z.coerce.number().int().min(0).max(100_000_000).optional(),
  search: SearchTermSchema.optional(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** The rows to skip for a page query. */
export function pageOffset(query: Pick<PageQuery, 'page' | 'pageSize' | 'offset'>): number {
  return query.offset ?? query.page * query.pageSize;
}

/** The answer shape of a paged list. */
export function pageResultSchema<T extends z.ZodType>(item: T) {
  return z.object({
    total: z.number().int().min(0),
    page: z.number().int().min(0),
    pageSize: z.number().int().min(1),
    items: z.array(item),
  });
}
export type PageResult<T> = { total: number; page: number; pageSize: number; items: T[] };

export function buildPageResult<T>(query: Pick<PageQuery, 'page' | 'pageSize'>, total: number, items: T[]): PageResult<T> {
  return { total, page: query.page, pageSize: query.pageSize, items };
}

/** Number of pages for 'page X of N' (at least one, so an empty list reads 'page 1 of 1'). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
