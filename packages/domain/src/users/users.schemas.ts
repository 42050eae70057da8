import { z } from 'zod';
import { IdSchema, TextSchema } from '../common/api.schemas.js';
import { MAX_PAGE_SIZE, PAGE_SIZE_USERS, SEARCH_MIN_LENGTH } from '../common/constants.js';
import { SEARCH_TOO_SHORT_MESSAGE, SearchTermSchema } from '../common/page.schemas.js';
import { GroupSchema } from '../groups/group.schemas.js';
import { PRODUCT_TYPES } from '../product/product-types.js';
import { ROLES } from '../roles/roles.js';

/** Owner id lookups are chunked by 50 (spec section 9): one GET /users call names at most this many ids. */
export const USER_ID_LOOKUP_MAX = 50;
/** At most this many users answer a lookup search (GET /users?q=). */
export const USER_SEARCH_LIMIT = 50;

/** A query flag: `true` or `false` (absent: false). */
const QueryFlagSchema = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

/** A search term that must be there: trimmed, at least SEARCH_MIN_LENGTH characters (spec section 5). */
const RequiredSearchTermSchema = TextSchema.max(200)
  .transform((value) => value.trim())
  .pipe(z.string().min(SEARCH_MIN_LENGTH, SEARCH_TOO_SHORT_MESSAGE));

/** Rows to skip and rows to answer, for the calls that page by rows (`offset`, `count`). */
const RowPageSchema = z.object({
  offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
  count: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE_USERS),
});

/**
 * GET /fetchall/users: the users of the group `orgId` (its organisation's admins and instructors),
 * or every user (the provider's staff) without it. `includeDeleted` adds removed members and
 * deleted accounts, flagged `deleted`; `overrideRole` reports the organisation-specific role, which
 * overrides the global one there (spec section 6), instead of the global role.
 */
export const FetchAllUsersQuerySchema = RowPageSchema.extend({
  orgId: IdSchema.optional(),
  includeDeleted: QueryFlagSchema,
  overrideRole: QueryFlagSchema,
});
export type FetchAllUsersQuery = z.infer<typeof FetchAllUsersQuerySchema>;

export const ListedUserSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  role: z.enum(ROLES),
  /** Removed from the organisation (archived), or the account was deleted. */
  deleted: z.boolean(),
  /** ISO 8601. */
  created_at: z.string(),
});
export type ListedUser = z.infer<typeof ListedUserSchema>;

export const FetchAllUsersResultSchema = z.object({
  data: z.object({ users: z.array(ListedUserSchema), total: z.number().int().min(0) }),
});
export type FetchAllUsersResult = z.infer<typeof FetchAllUsersResultSchema>;

/** `user_id=a&user_id=b` or `user_id=a,b`: distinct ids, at most USER_ID_LOOKUP_MAX of them. */
const UserIdListSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => [
    ...new Set(
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((id) => id.trim())
        .filter((id) => id.length > 0),
    ),
  ])
  .pipe(z.array(IdSchema).min(1).max(USER_ID_LOOKUP_MAX, `At most ${USER_ID_LOOKUP_MAX} ids per call`));

/** GET /users: a search over e-mail and names (`q`), or a lookup of ids (`user_id`); one of the two. */
export const UserLookupQuerySchema = z
  .object({ q: RequiredSearchTermSchema.optional(), user_id: UserIdListSchema.optional() })
  .refine((query) => (query.q === undefined) !== (query.user_id === undefined), {
    message: 'Send either q or user_id',
  });
export type UserLookupQuery = z.infer<typeof UserLookupQuerySchema>;

export const UserSummarySchema = z.object({
  user_id: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  /** The account was deleted (an id lookup still names it, for example as a case's author). */
  deleted: z.boolean(),
});
export type UserSummary = z.infer<typeof UserSummarySchema>;

export const UserSummaryListSchema = z.object({ users: z.array(UserSummarySchema) });
export type UserSummaryList = z.infer<typeof UserSummaryListSchema>;

/**
 * GET /search/users: a page (`offset`, `count`) within the group `orgId`, or across every user (the
 * provider's staff) without it; there `includeDeleted` adds deleted accounts, flagged `deleted`.
 */
export const UserSearchQuerySchema = RowPageSchema.extend({
  term: RequiredSearchTermSchema,
  orgId: IdSchema.optional(),
  includeDeleted: QueryFlagSchema,
}).refine((query) => !(query.includeDeleted && query.orgId !== undefined), {
  message: 'includeDeleted applies to the search over every user, without orgId',
  path: ['includeDeleted'],
});
export type UserSearchQuery = z.infer<typeof UserSearchQuerySchema>;

export const FoundUserSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  /** The role in the organisation searched, or the global role. */
  role: z.enum(ROLES),
  /** The account was deleted: only when the search asked for deleted accounts (`includeDeleted`). */
  deleted: z.boolean().optional(),
});
export type FoundUser = z.infer<typeof FoundUserSchema>;

/** One page of a search, and how many users the search matches in all. */
export const FoundUserListSchema = z.object({ users: z.array(FoundUserSchema), total: z.number().int().min(0) });
export type FoundUserList = z.infer<typeof FoundUserListSchema>;

/**
 * GET /archived-users: the removed members of the organisation `orgId`, or without it of the
 * caller's active organisation (the spec's call names none). The spec's "regex filter" is taken as
 * a plain substring of e-mail or names: user-supplied regular expressions never run.
 */
export const ArchivedUsersQuerySchema = RowPageSchema.extend({
  orgId: IdSchema.optional(),
  filter: SearchTermSchema.optional(),
});
export type ArchivedUsersQuery = z.infer<typeof ArchivedUsersQuerySchema>;

export const ArchivedUserSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  /** The role they held there. */
  role: z.enum(ROLES),
  /** ISO 8601. */
  removed_at: z.string(),
  /** The account itself was deleted too. */
  deleted: z.boolean(),
});
export type ArchivedUser = z.infer<typeof ArchivedUserSchema>;

export const ArchivedUsersResultSchema = z.object({
  archivedusers: z.array(ArchivedUserSchema),
  total: z.number().int().min(0),
});
export type ArchivedUsersResult = z.infer<typeof ArchivedUsersResultSchema>;

/** One of a user's memberships as the provider's user view shows it: the group, the role there, removed or not. */
export const UserMembershipSchema = z.object({
  group: GroupSchema,
  /** The role that applies there (the org-specific role, else the global one). */
  role: z.enum(ROLES),
  subscribed: z.boolean(),
  /** The user is the group's key owner (organisation) or group admin (sub-group). */
  key_owner: z.boolean(),
  /** ISO 8601 when the member was removed (archived); null while a member. */
  removed_at: z.string().nullable(),
});
export type UserMembership = z.infer<typeof UserMembershipSchema>;

/** GET /users/{id}: a user's account and every membership, for the provider's user view. */
export const UserDetailsSchema = z.object({
  user: z.object({
    user_id: z.string(),
    email: z.string(),
    given_name: z.string(),
    family_name: z.string(),
    /** The global role. */
    role: z.enum(ROLES),
    productType: z.enum(PRODUCT_TYPES),
    email_verified: z.boolean(),
    /** The organisation the user works in, if any. */
    activeOrg: z.string().nullable(),
    deleted: z.boolean(),
    /** ISO 8601. */
    created_at: z.string(),
  }),
  /** Organisations first, then sub-groups; active before removed. */
  memberships: z.array(UserMembershipSchema),
});
export type UserDetails = z.infer<typeof UserDetailsSchema>;

/**
 * POST /users/{id}/move: the provider moves a person into the organisation `orgId`, out of
 * `fromOrgId` when given (that membership is archived, as a removal is); `role` is the role in the
 * new organisation (default: the role held in `fromOrgId`, else the global role).
 */
export const MoveUserBodySchema = z
  .object({ orgId: IdSchema, fromOrgId: IdSchema.optional(), role: z.enum(ROLES).optional() })
  .strict()
  .refine((body) => body.orgId !== body.fromOrgId, {
    message: 'The user is already in this organization',
    path: ['orgId'],
  });
export type MoveUserBody = z.infer<typeof MoveUserBodySchema>;
