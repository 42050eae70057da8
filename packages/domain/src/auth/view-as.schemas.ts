import { z } from 'zod';
import { IdSchema, TextSchema } from '../common/api.schemas.js';
import { IdTokenPayloadSchema } from '../identity/token.schemas.js';
import { EmailSchema } from './auth.schemas.js';

/** Why a super admin views the product as someone, or ends the view: optional, kept in the audit trail. */
export const VIEW_AS_REASON_MAX = 500;
const ReasonSchema = TextSchema.trim().max(VIEW_AS_REASON_MAX).optional();

/** POST /auth/loginAs (spec section 7): the organisation and e-mail of the person to view the product as. */
export const LoginAsBodySchema = z.object({
  orgId: IdSchema,
  email: EmailSchema,
  reason: ReasonSchema,
});
export type LoginAsBody = z.infer<typeof LoginAsBodySchema>;

/** Its answer: `data.idToken` for that person, with an `act` claim naming the super admin. */
export const LoginAsResponseSchema = z.object({
  data: z.object({ idToken: z.string(), idTokenPayload: IdTokenPayloadSchema }),
});
export type LoginAsResponse = z.infer<typeof LoginAsResponseSchema>;

/**
 * POST /auth/loginAs/end, with the View-As-User token: ends the view at once (the token is refused
 * from then on). `expired` says the view ends because its time is up rather than by choice.
 */
export const EndViewAsBodySchema = z.object({
  reason: ReasonSchema,
  expired: z.boolean().default(false),
});
export type EndViewAsBody = z.input<typeof EndViewAsBodySchema>;
