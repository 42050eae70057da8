/**
 * Inputs and results of the case API (GraphQL at POST /api/graphql and GET /api/cases/{id}),
 * shared by the server, which validates with them, and the web app, which types its calls.
 */
import { z } from 'zod';
import { IdSchema, TextSchema } from '../common/api.schemas.js';
import { PRODUCT_TYPES } from '../product/product-types.js';
import {
  CASE_PAGE_SIZE,
  CASE_PAGE_SIZE_MAX,
  CASE_SEARCH_MAX,
  CASE_SORT_FIELDS,
  CASE_UPDATE_STATUSES,
  type CaseUpdateStatus,
} from './case-list.js';

export const CASE_ACCESS_KINDS = ['READ', 'WRITE', 'RUN', 'SHARE'] as const;
export type CaseAccessKind = (typeof CASE_ACCESS_KINDS)[number];

/** Pseudo groups a case's access lists may name (spec section 6); `{orgId}_ADMINS` and `{orgId}_INSTRUCTORS` too. */
export const CASE_PSEUDO_GROUPS = ['ALL_ADMINS', 'ALL_INSTRUCTORS', 'ALL_USERS', 'ALL_STUDENTS', 'ALL_KEYOWNERS'] as const;
/** What publishing a template adds to its read and run groups (spec section 4). */
export const PUBLISHED_PSEUDO_GROUPS = ['ALL_ADMINS', 'ALL_INSTRUCTORS'] as const;

/** The most ids one bulk call or effect-chain update names. */
export const CASE_BULK_MAX = 100;
/** A case name: what the list shows and duplicate asks for. */
export const CASE_NAME_MAX = 200;
/** The largest case document accepted by save and restore (characters of its JSON). */
export const CASE_DOCUMENT_MAX_CHARS = 512 * 1024;
/** The header that carries the deployment's access code to GET /api/cases/{id} (decision 17). */
export const CASE_ACCESS_CODE_HEADER = 'x-case-access-code';

const PrincipalSchema = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9_:-]+$/, 'Invalid principal');
export const CaseAccessListSchema = z.object({
  groups: z.array(PrincipalSchema).max(200),
  users: z.array(PrincipalSchema).max(200),
  roles: z.array(PrincipalSchema).max(10),
  productType: z.array(z.enum(PRODUCT_TYPES)).max(3),
});
export type CaseAccessListInput = z.infer<typeof CaseAccessListSchema>;

export const CaseAccessInputSchema = z.object({
  owner: IdSchema.nullish(),
  ownerOrg: IdSchema.nullish(),
  read: CaseAccessListSchema,
  write: CaseAccessListSchema,
  run: CaseAccessListSchema,
  share: CaseAccessListSchema,
});
export type CaseAccessInput = z.infer<typeof CaseAccessInputSchema>;

export const CaseSortInputSchema = z.object({
  field: z.enum(CASE_SORT_FIELDS),
  direction: z.enum(['ASC', 'DESC']),
});

export const CaseFiltersInputSchema = z.object({
  madeByMe: z.boolean().nullish(),
  sharedWithMe: z.boolean().nullish(),
  assignedToMe: z.boolean().nullish(),
  favorited: z.boolean().nullish(),
  template: z.boolean().nullish(),
});

/** The opaque cursor of a page: what the server handed out, base64url. */
export const CaseCursorSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid cursor');

export const CaseListArgsSchema = z.object({
  withAccess: z
    .enum(CASE_ACCESS_KINDS)
    .nullish()
    .transform((value) => value ?? 'READ'),
  sortBy: CaseSortInputSchema.nullish(),
  filters: CaseFiltersInputSchema.nullish(),
  search: TextSchema.max(CASE_SEARCH_MAX).nullish(),
  first: z
    .number()
    .int()
    .min(1, `first must be between 1 and ${CASE_PAGE_SIZE_MAX}`)
    .max(CASE_PAGE_SIZE_MAX, `first must be between 1 and ${CASE_PAGE_SIZE_MAX}`)
    .nullish()
    .transform((value) => value ?? CASE_PAGE_SIZE),
  after: CaseCursorSchema.nullish(),
});
export type CaseListArgs = z.output<typeof CaseListArgsSchema>;

export const CaseIdArgsSchema = z.object({ id: IdSchema });
export const CaseIdsArgsSchema = z.object({ ids: z.array(IdSchema).min(1).max(CASE_BULK_MAX) });
export const TemplateCasesArgsSchema = z.object({ productType: z.enum(PRODUCT_TYPES) });
export const PublishTemplateArgsSchema = z.object({ id: IdSchema, published: z.boolean() });
export const SetTemplateAppLabArgsSchema = z.object({ id: IdSchema, applab: z.boolean() });
export const DuplicateCaseArgsSchema = z.object({ id: IdSchema, newCaseName: TextSchema.trim().min(1).max(CASE_NAME_MAX) });
export const UpsertCaseArgsSchema = z.object({
  id: IdSchema,
  access: CaseAccessInputSchema.nullish(),
  isTemplate: z.boolean().nullish(),
});
export const UpdateEffectChainsArgsSchema = z.object({
  decisions: z
    .array(z.object({ id: IdSchema, choice: z.enum(['YES', 'NO']) }))
    .min(1)
    .max(CASE_BULK_MAX)
    .refine((decisions) => new Set(decisions.map((d) => d.id)).size === decisions.length, 'Each case may be named once'),
});

/** Whether a JSON value holds NUL in any key or string (jsonb cannot store it). */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNul(item));
  }
  return false;
}

const CaptionedTextSchema = z.object({ caption: z.object({ en: TextSchema.max(20_000) }), displayed: z.boolean() });
const PictureSchema = z.object({ url: TextSchema.max(2000) }).nullish();
const PlaceSchema = z.object({ name: z.object({ en: TextSchema.max(CASE_NAME_MAX) }), picture: PictureSchema }).nullish();

/**
 * The case document a client saves or restores (spec section 3): what the list shows is checked,
 * anything else the scenario builder keeps (its case logic) passes through as JSON. The access
 * lists, shares and per-user fields are never taken from it.
 */
export const CaseDocumentSchema = z
  .object({
    name: TextSchema.trim().min(1).max(CASE_NAME_MAX),
    tags: TextSchema.max(2000).nullish(),
    dispatch: z
      .object({ learningObjectives: CaptionedTextSchema.nullish(), chiefComplaint: CaptionedTextSchema.nullish() })
      .nullish(),
    _avatar: z
      .object({
        id: TextSchema.max(80),
        key: TextSchema.max(80),
        name: z.object({ en: TextSchema.max(CASE_NAME_MAX) }),
        picture: PictureSchema,
      })
      .nullish(),
    _startLocation: PlaceSchema,
    _endLocation: PlaceSchema,
    isTemplate: z.boolean().optional(),
    needsEcUpdate: z.boolean().optional(),
    ignoreEcUpdate: z.boolean().optional(),
    updateStatus: z.enum(CASE_UPDATE_STATUSES).nullish(),
    errorsCount: z.number().int().min(0).max(100_000).optional(),
    warningsCount: z.number().int().min(0).max(100_000).optional(),
    outdatedMedications: z.array(TextSchema.max(500)).max(1000).optional(),
    outdatedEcNodes: z.array(TextSchema.max(500)).max(1000).optional(),
    searchableText: TextSchema.max(50_000).optional(),
    origin: TextSchema.max(200).nullish(),
    createdAt: z.iso.datetime({ offset: true }).optional(),
  })
  .catchall(z.unknown())
  .refine((document) => !hasNul(document), 'Must not contain NUL characters')
  .refine((document) => JSON.stringify(document).length <= CASE_DOCUMENT_MAX_CHARS, 'The case document is too large');
export type CaseDocumentInput = z.output<typeof CaseDocumentSchema>;

export const SaveCaseArgsSchema = z.object({ id: IdSchema, document: CaseDocumentSchema });
export const RestoreCaseArgsSchema = z.object({ dump: CaseDocumentSchema, ownerOrg: IdSchema });

/** One case of the list, as the GraphQL type CaseConfiguration answers it. */
export type CaseAccessList = { groups: string[]; users: string[]; roles: string[]; productType: string[] };
export type CaseAccess = {
  owner: string | null;
  ownerOrg: string | null;
  read: CaseAccessList;
  write: CaseAccessList;
  run: CaseAccessList;
  share: CaseAccessList;
};
export type CaseConfigurationResult = {
  id: string;
  name: string;
  tags: string | null;
  dispatch: {
    learningObjectives: { caption: { en: string }; displayed: boolean } | null;
    chiefComplaint: { caption: { en: string }; displayed: boolean } | null;
  } | null;
  access: CaseAccess;
  author: { id: string; name: string } | null;
  _avatar: { id: string; key: string; name: { en: string }; picture: { url: string } | null } | null;
  _startLocation: { name: { en: string }; picture: { url: string } | null } | null;
  _endLocation: { name: { en: string }; picture: { url: string } | null } | null;
  isTemplate: boolean;
  isFavorite: boolean;
  lastPlayed: string | null;
  lastAccessed: string | null;
  createdAt: string;
  needsEcUpdate: boolean;
  ignoreEcUpdate: boolean;
  updateStatus: CaseUpdateStatus | null;
  errorsCount: number;
  warningsCount: number;
  outdatedMedications: string[];
  outdatedEcNodes: string[];
  shares: { shareType: string; from: string; to: string }[];
  timed_access: { users: string[]; groups: string[] } | null;
  searchableText: string;
  origin: string | null;
  published: boolean;
  applab: boolean;
  /** Whether the caller may update the case (write access): only they are offered its Y/N choice. */
  canUpdate: boolean;
};
/** `totalCount` is exact up to CASE_COUNT_LIMIT; `totalCountCapped` says there are more than it. */
export type CaseConfigurationPage = {
  items: CaseConfigurationResult[];
  nextCursor: string | null;
  totalCount: number;
  totalCountCapped: boolean;
};
export type CaseUpdateResult = {
  id: string;
  updateStatus: CaseUpdateStatus | null;
  ignoreEcUpdate: boolean;
  error: string | null;
  /** The error's code (CASE_UPDATE_REFUSED, CASE_UPDATE_NOT_PENDING, NOT_FOUND), null when applied. */
  errorCode: string | null;
};
