import { z } from 'zod';
import { EmailSchema, NameSchema } from '../auth/auth.schemas.js';
import { IdSchema } from '../common/api.schemas.js';
import { ROLES } from '../roles/roles.js';
import { PageQuerySchema, pageResultSchema } from '../common/page.schemas.js';

/** Which users of an organisation a list shows (the three Users pages, spec section 2). */
export const ORG_USERS_VARIANTS = ['all', 'subscribed', 'archived'] as const;
export type OrgUsersVariant = (typeof ORG_USERS_VARIANTS)[number];

export const OrgMembersQuerySchema = PageQuerySchema.extend({
  variant: z.enum(ORG_USERS_VARIANTS).default('all'),
});
export type OrgMembersQuery = z.infer<typeof OrgMembersQuerySchema>;

/**
 * A user as the organisation's tables show them (spec section 3): a member, or a pending (or
 * declined) invitee, who has no user id yet when they have no account.
 */
export const OrgUserSchema = z.object({
  user_id: z.string().nullable(),
  given_name: z.string(),
  family_name: z.string(),
  email: z.string(),
  /** The role in this organisation (org-specific, else global; an invitee's invited role). */
  role: z.enum(ROLES),
  /** Removed from the organisation (archived for grading). */
  deleted: z.boolean(),
  pending: z.boolean(),
  declined: z.boolean(),
  subscribed: z.boolean(),
  key_owner: z.boolean(),
});
export type OrgUser = z.infer<typeof OrgUserSchema>;

export const OrgUsersPageSchema = pageResultSchema(OrgUserSchema);
export type OrgUsersPage = z.infer<typeof OrgUsersPageSchema>;

/** PATCH /users/{id}?orgId=: the organisation an admin edits a member in. */
export const OrgUserEditQuerySchema = z.object({ orgId: IdSchema });

/** An admin's edit of a member (spec sections 3 and 5): only changed fields are sent. */
export const UpdateOrgUserBodySchema = z
  .object({
    given_name: NameSchema.optional(),
    family_name: NameSchema.optional(),
    email: EmailSchema.optional(),
    /** The role in this organisation. */
    role: z.enum(ROLES).optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'Nothing to change' });
export type UpdateOrgUserBody = z.infer<typeof UpdateOrgUserBodySchema>;
