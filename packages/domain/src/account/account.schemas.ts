import { z } from 'zod';
import { EmailSchema, NameSchema, PasswordSchema } from '../auth/auth.schemas.js';

/** PATCH /users/{id}: only the changed fields are sent. */
export const UpdateProfileBodySchema = z
  .object({ email: EmailSchema.optional(), given_name: NameSchema.optional(), family_name: NameSchema.optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBodySchema>;

export const ProfileSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  given_name: z.string(),
  family_name: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ChangePasswordBodySchema = z.object({ oldPassword: PasswordSchema, newPassword: PasswordSchema });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const ScenarioSummaryQuerySchema = z.object({
  showAllOrgs: z.enum(['true', 'false']).default('true'),
  showAllUsers: z.enum(['true', 'false']).default('false'),
});

export const MemberIdsBodySchema = z.array(z.string().min(1).max(64)).min(1).max(100);

export const KeyOwnerSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
});

export const BillingSessionResponseSchema = z.object({ ok: z.literal(true), data: z.object({ sessionUrl: z.string() }) });
