import { z } from 'zod';
import { IdSchema, TextSchema } from '../common/api.schemas.js';
import { GROUP_ABOUT_MAX, GROUP_NAME_MAX, MAX_PAGE_SIZE, PAGE_SIZE_USERS, SEARCH_MIN_LENGTH } from '../common/constants.js';
import { PRODUCT_TYPES } from '../product/product-types.js';
import { ROLES } from '../roles/roles.js';
import { PageQuerySchema, pageResultSchema } from '../common/page.schemas.js';
import { GroupSchema, displayGroupName } from './group.schemas.js';

/**
 * A group name as a client sends it: a sub-group's may already carry its parent prefix
 * (decision 10), so the limit applies to the plain name the user typed and sees.
 */
export const GroupNameSchema = TextSchema.transform((value) => value.trim())
  .refine((value) => displayGroupName(value).trim().length > 0, 'A name is required')
  .refine((value) => displayGroupName(value).length <= GROUP_NAME_MAX, `At most ${GROUP_NAME_MAX} characters`);

/** A group's free-text description: trimmed, empty clears it. */
export const GroupAboutSchema = TextSchema.transform((value) => value.trim()).pipe(
  z.string().max(GROUP_ABOUT_MAX, `At most ${GROUP_ABOUT_MAX} characters`),
);

/** Parses the JSON text of a `description` with `schema`, reporting bad JSON as a validation issue. */
function jsonText<T extends z.ZodType>(schema: T) {
  return TextSchema.max(4000).transform((text, ctx): z.output<T> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Must be JSON text' });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** The metadata a client sends when creating a sub-group: its organisation. */
export const CreateGroupMetadataSchema = z.object({ parent: IdSchema }).loose();

/** POST /extension/groups: a sub-group, `description` being the JSON text of its metadata (spec 3). */
export const CreateGroupBodySchema = z.object({
  name: GroupNameSchema,
  description: jsonText(CreateGroupMetadataSchema),
});
export type CreateGroupBody = z.input<typeof CreateGroupBodySchema>;

/** The create-group dialog's fields (the parent comes from the page). */
export const GroupNameFormSchema = z.object({ name: GroupNameSchema });
export type GroupNameForm = z.input<typeof GroupNameFormSchema>;

/** The org profile's editable fields: name and description. */
export const OrganisationProfileFormSchema = z.object({ name: GroupNameSchema, about: GroupAboutSchema });
export type OrganisationProfileForm = z.input<typeof OrganisationProfileFormSchema>;

/**
 * Metadata fields a PATCH may change; `parent` and the counted figures (`memberCount`,
 * `seatHolders`, `pendingSeatInvitations`, `openSeats`) are read-only and ignored.
 */
export const GroupChangesSchema = z.object({
  about: GroupAboutSchema.optional(),
  ownerId: IdSchema.optional(),
  seats: z.number().int('Seats must be an integer').min(0).max(1_000_000).optional(),
  productType: z.enum(PRODUCT_TYPES).optional(),
  dev: z.boolean().optional(),
  testing: z.boolean().optional(),
  debug: z.boolean().optional(),
  ai: z.boolean().optional(),
  inactive: z.boolean().optional(),
});
export type GroupChanges = z.infer<typeof GroupChangesSchema>;

/** Fields only the provider's staff (org:configure) may change. */
export const CONFIGURATION_FIELDS = ['seats', 'productType', 'dev', 'testing', 'debug', 'ai', 'inactive'] as const;

/**
 * PATCH /extension/groups/{id}: a name and/or metadata fields, at the top level or as the JSON text
 * of `description` (top-level fields win).
 */
export const UpdateGroupBodySchema = GroupChangesSchema.extend({
  name: GroupNameSchema.optional(),
  description: jsonText(
    GroupChangesSchema.extend({
      parent: z.string().optional(),
      memberCount: z.number().optional(),
      seatHolders: z.number().optional(),
      pendingSeatInvitations: z.number().optional(),
      openSeats: z.number().optional(),
    }).strict(),
  ).optional(),
}).strict();
export type UpdateGroupBody = z.input<typeof UpdateGroupBodySchema>;

/** DELETE /extension/groups/{parent}/nested and PATCH /extension/groups/{id}/members. */
export const GroupIdsBodySchema = z.array(IdSchema).min(1).max(MAX_PAGE_SIZE);

export const ParentParamsSchema = z.object({ parent: IdSchema });

/** GET /search/groups?term= */
export const GroupSearchQuerySchema = z.object({
  term: TextSchema.transform((value) => value.trim()).pipe(z.string().min(SEARCH_MIN_LENGTH).max(100)),
});

/**
 * GET /extension/groups/{id}/member-search: members of the group's organisation, by e-mail or name
 * (`term`), by role there, in or not in the named group. Without a term only a group's own members
 * are listed (`inGroup=true`): an organisation is never listed whole here.
 */
export const MemberSearchQuerySchema = z.object({
  term: TextSchema.transform((value) => value.trim())
    .pipe(z.string().min(SEARCH_MIN_LENGTH).max(100))
    .optional(),
  role: z.enum(ROLES).optional(),
  inGroup: z.enum(['true', 'false']).optional(),
  /** A page of the matches, by name: rows to skip and rows to answer. */
  offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
  count: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE_USERS),
});
export type MemberSearchQuery = Omit<z.input<typeof MemberSearchQuerySchema>, 'offset' | 'count'> & {
  offset?: number;
  count?: number;
};

export const GroupMemberSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  role: z.enum(ROLES),
});
export type GroupMember = z.infer<typeof GroupMemberSchema>;
/** One page of the matches, and how many there are in all. */
export const MemberSearchResultSchema = z.object({ users: z.array(GroupMemberSchema), total: z.number().int().min(0) });
export type MemberSearchResult = z.infer<typeof MemberSearchResultSchema>;

/**
 * GET /organizations: a page of every organisation (the access area), by name; `search`
 * keeps those whose name contains it.
 */
export const OrganisationsQuerySchema = PageQuerySchema.pick({ page: true, pageSize: true, search: true });
export type OrganisationsQuery = z.infer<typeof OrganisationsQuerySchema>;
export const OrganisationsPageSchema = pageResultSchema(GroupSchema);
export type OrganisationsPage = z.infer<typeof OrganisationsPageSchema>;
