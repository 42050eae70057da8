import { z } from 'zod';
import { EmailSchema, NameSchema, PasswordSchema } from '../auth/auth.schemas.js';
import { IdSchema, LinkTokenSchema } from '../common/api.schemas.js';
import { GroupListSchema } from '../groups/group.schemas.js';
import { TokenResponseSchema } from '../identity/token.schemas.js';
import { ROLES } from '../roles/roles.js';

/** What an integration sends to provision a person (decision 15). */
export const ProvisionBodySchema = z.object({
  email: EmailSchema,
  given_name: NameSchema,
  family_name: NameSchema,
  orgId: IdSchema,
  role: z.enum(ROLES).exclude(['SUPER_ADMIN']).default('STUDENT'),
});
export type ProvisionBody = z.infer<typeof ProvisionBodySchema>;

export const ProvisionResponseSchema = z.object({ link: z.string(), expiresAt: z.string() });

export const ProvisioningQuerySchema = z.object({ token: LinkTokenSchema });
export const ProvisioningDescriptionSchema = z.object({ email: z.string(), given_name: z.string(), family_name: z.string() });

export const AddUserBodySchema = z.object({ password: PasswordSchema, token: LinkTokenSchema });
/** The answer of POST /integrations/add-user: a login result with the new user's groups. */
export const ProvisionedLoginSchema = TokenResponseSchema.extend({
  groupData: z.object({ groups: GroupListSchema, activeGroups: GroupListSchema }),
});
export type ProvisionedLogin = z.infer<typeof ProvisionedLoginSchema>;
