import { z } from 'zod';
import { EmailSchema, NameSchema, PasswordSchema } from '../auth/auth.schemas.js';
import { IdSchema, LinkTokenSchema } from '../common/api.schemas.js';

/**
 * PATCH /users/{id}: only the changed fields are sent. A new e-mail address needs the current
 * password (a stolen token alone cannot move the account to another address).
 */
export const UpdateProfileBodySchema = z
  .object({
    email: EmailSchema.optional(),
    given_name: NameSchema.optional(),
    family_name: NameSchema.optional(),
    currentPassword: PasswordSchema.optional(),
  })
  .strict()
  .refine((body) => body.email !== undefined || body.given_name !== undefined || body.family_name !== undefined, {
    message: 'Nothing to change',
  })
  .refine((body) => body.email === undefined || body.currentPassword !== undefined, {
    message: 'Enter your current password to change your email address.',
    path: ['currentPassword'],
  });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBodySchema>;

export const ProfileSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  given_name: z.string(),
  family_name: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** POST /account/reclaim-email: the token of a "this wasn't me" link. */
export const ReclaimEmailBodySchema = z.object({ token: LinkTokenSchema });
export type ReclaimEmailBody = z.infer<typeof ReclaimEmailBodySchema>;

/** The address the account is back on, and a password reset token to choose a new password with. */
export const ReclaimEmailResultSchema = z.object({ email: z.string(), resetToken: z.string() });
export type ReclaimEmailResult = z.infer<typeof ReclaimEmailResultSchema>;

export const ChangePasswordBodySchema = z.object({ oldPassword: PasswordSchema, newPassword: PasswordSchema });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const ScenarioSummaryQuerySchema = z.object({
  showAllOrgs: z.enum(['true', 'false']).default('true'),
  showAllUsers: z.enum(['true', 'false']).default('false'),
});

export const MemberIdsBodySchema = z.array(IdSchema).min(1).max(100);

/** The key owner of an organisation, or a sub-group's admin: the e-mail only for those with org:key-owner:email. */
export const KeyOwnerSchema = z.object({
  user_id: z.string(),
  email: z.string().optional(),
  given_name: z.string(),
  family_name: z.string(),
});

/**
 * The answer of `GET /extension/groups/{id}/key-owner`: the key owner (organisation) or group admin
 * (sub-group), or null when the group has none. "None" is an answer, not an error.
 */
export const KeyOwnerAnswerSchema = KeyOwnerSchema.nullable();

export const BillingSessionResponseSchema = z.object({ ok: z.literal(true), data: z.object({ sessionUrl: z.string() }) });

/** GET /support-contact: where people reach the provider. */
export const SupportContactSchema = z.object({ email: z.string() });
export type SupportContact = z.infer<typeof SupportContactSchema>;
