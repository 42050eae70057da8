import { z } from 'zod';
import { IdSchema } from '../common/api.schemas.js';

/**
 * One live session of the signed-in person, as their account's session list shows it. Named by
 * the session's id, never its token (the token is the cookie's secret).
 */
export const AccountSessionSchema = z.object({
  id: IdSchema,
  /** Browser and system read from the user agent ("Chrome on macOS"); null when it names neither. */
  device: z.string().nullable(),
  ipAddress: z.string().nullable(),
  /** ISO 8601: when the person signed in. */
  signedInAt: z.string(),
  /**
   * ISO 8601: the last time the session was renewed forward. The identity library does that at
   * most once a day (on the first renewal a day after the last), so this is accurate to a day.
   */
  lastActiveAt: z.string(),
  /** The session the request came from ("This device"). */
  isCurrent: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

/** The caller's live sessions, the current one first, then the most recently active. */
export const AccountSessionsSchema = z.object({ sessions: z.array(AccountSessionSchema) });
export type AccountSessions = z.infer<typeof AccountSessionsSchema>;

/** How many sessions a sign-out ended. */
export const EndedSessionsSchema = z.object({ ended: z.number().int().nonnegative() });
export type EndedSessions = z.infer<typeof EndedSessionsSchema>;

/** A member of the organisation `id` whose sessions an admin ends. */
export const MemberSignOutParamsSchema = z.object({ id: IdSchema, userId: IdSchema });
