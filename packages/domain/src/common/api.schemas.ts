import { z } from 'zod';

export const ErrorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});

export const OkSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof OkSchema>;

/** The characters of every id: generated ids are hex, pseudo-group names are `{orgId}_ADMINS`. */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const INVALID_ID_MESSAGE = 'Invalid id';

/** An id sent by a client (path, query or body). */
export const IdSchema = z.string().min(1).max(64).regex(ID_PATTERN, INVALID_ID_MESSAGE);

/**
 * Free text that is stored. PostgreSQL text cannot hold NUL: refused here, as bad input, rather
 * than failing in the database.
 */
export const TextSchema = z.string().refine((value) => !value.includes('\u0000'), 'Must not contain NUL characters');

/** A token from an e-mailed link: opaque, but never NUL. */
export const LinkTokenSchema = TextSchema.min(10).max(512);

export const IdParamsSchema = z.object({ id: IdSchema });
export const UserIdParamsSchema = z.object({ userId: IdSchema });
