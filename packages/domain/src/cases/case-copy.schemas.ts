/**
 * The Cases tool (spec sections 2, 4 and 7; decision 17): copying cases between deployments and
 * comparing two cases. Shared by the server, which validates with these, and the access area's Cases tool.
 */
import { z } from 'zod';
import { IdSchema } from '../common/api.schemas.js';
import { SEARCH_MIN_LENGTH } from '../common/constants.js';
import { CASE_BULK_MAX, CaseDocumentSchema } from './case.schemas.js';

/** The deployments the case tools know (decision 17). */
export const CASE_ENVIRONMENT_NAMES = ['dev', 'stable', 'staging', 'app'] as const;
export type CaseEnvironmentName = (typeof CASE_ENVIRONMENT_NAMES)[number];
export const CaseEnvironmentNameSchema = z.enum(CASE_ENVIRONMENT_NAMES);

/** The header carrying the receiving deployment's access code on the peer endpoints (decision 0027). */
export const CASE_PEER_CODE_HEADER = 'x-case-peer-code';
/** The header naming, for the receiving side's audit trail, who asked for the call and from where. */
export const CASE_PEER_REQUESTED_BY_HEADER = 'x-case-requested-by';

/** The most cases one copy names (spec section 7: a bounded list, copied 3 at a time). */
export const CASE_COPY_MAX = 20;
/** How many cases a copy handles at once (spec section 7). */
export const CASE_COPY_CONCURRENCY = 3;

// ----- the peer endpoints (one deployment calling another) -----

export const PeerDumpBodySchema = z.object({ ids: z.array(IdSchema).min(1).max(CASE_BULK_MAX) });
export const PeerRestoreBodySchema = z.object({ dump: CaseDocumentSchema, ownerOrg: IdSchema });
export const PeerRemoveBodySchema = z.object({ ids: z.array(IdSchema).min(1).max(CASE_BULK_MAX) });
export const PeerDumpResultSchema = z.object({
  cases: z.array(z.object({ id: IdSchema, document: z.record(z.string(), z.unknown()) })),
});
export const PeerRestoreResultSchema = z.object({ id: IdSchema });
export const PeerRemoveResultSchema = z.object({ removed: z.number().int().min(0) });

/** The shortest term a case or organisation search takes: the spec's search minimum (section 9). */
export const CASE_TOOL_SEARCH_MIN = SEARCH_MIN_LENGTH;
/** The most cases or organisations one search answers. */
export const CASE_TOOL_SEARCH_LIMIT = 20;
export const PeerSearchQuerySchema = z.object({
  q: z.string().trim().min(CASE_TOOL_SEARCH_MIN, `At least ${CASE_TOOL_SEARCH_MIN} characters`).max(100),
});
/** A case found by name (or by its exact id), with the organisation that owns it. */
export const FoundCaseSchema = z.object({ id: IdSchema, name: z.string(), organisation: z.string().nullable() });
export type FoundCase = z.infer<typeof FoundCaseSchema>;
export const FoundCasesSchema = z.object({ cases: z.array(FoundCaseSchema) });
/** An organisation (top-level group) found by name. */
export const FoundOrganisationSchema = z.object({ id: IdSchema, name: z.string() });
export type FoundOrganisation = z.infer<typeof FoundOrganisationSchema>;
export const FoundOrganisationsSchema = z.object({ organisations: z.array(FoundOrganisationSchema) });

// ----- the media a case shows (decision 0041) -----

/** The largest media file a copy carries. */
export const CASE_MEDIA_MAX_BYTES = 8 * 1024 * 1024;
/** The most media files one case may reference and still be copied. */
export const CASE_MEDIA_PER_CASE_MAX = 50;
/**
 * The kinds of file a copy carries: pictures, videos and sounds a browser only displays. Nothing
 * that runs script when opened from this origin (HTML, SVG).
 */
export const CASE_MEDIA_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'video/webm',
  'video/mp4',
  'audio/mpeg',
  'audio/ogg',
  'audio/webm',
  'audio/wav',
] as const;
/** One media file as a copy carries it: its bytes in base64. */
export const PeerMediaSchema = z.object({
  id: IdSchema,
  fileName: z.string().trim().min(1).max(255),
  contentType: z.enum(CASE_MEDIA_CONTENT_TYPES),
  content: z.base64().max(Math.ceil(CASE_MEDIA_MAX_BYTES / 3) * 4),
});
export type PeerMedia = z.infer<typeof PeerMediaSchema>;
export const PeerMediaStoreResultSchema = z.object({ created: z.boolean() });
export const PeerMediaIdsBodySchema = z.object({
  ids: z
    .array(IdSchema)
    .min(1)
    .max(CASE_MEDIA_PER_CASE_MAX * CASE_COPY_MAX),
});
/** What a comparison knows of one media file: its type, size and SHA-256 (hex); null when missing. */
export const MediaDigestSchema = z
  .object({ contentType: z.string(), size: z.number().int().min(0), sha256: z.string() })
  .nullable();
export type MediaDigest = z.infer<typeof MediaDigestSchema>;
export const PeerMediaDigestsSchema = z.object({ media: z.record(z.string(), MediaDigestSchema) });
/** The media files a case references, by their URL (`/media/{id}`), as the comparison sees them. */
export type CaseMediaDigests = Record<string, MediaDigest>;

// ----- the tool's own routes (the super admin's browser) -----

/**
 * Every environment the tool knows of, in the spec's order: `current` is this deployment,
 * `configured` whether this deployment can reach it (decision 0041).
 */
export type CaseEnvironmentStatus = { name: CaseEnvironmentName; current: boolean; configured: boolean };
export type CaseEnvironmentsResult = { environments: CaseEnvironmentStatus[] };

/** A case or organisation search in one environment. */
export const CaseToolSearchQuerySchema = PeerSearchQuerySchema.extend({ env: CaseEnvironmentNameSchema });
export type CaseToolSearchQuery = z.infer<typeof CaseToolSearchQuerySchema>;

export const CaseCopyBodySchema = z.object({
  source: CaseEnvironmentNameSchema,
  target: CaseEnvironmentNameSchema,
  caseIds: z
    .array(IdSchema)
    .min(1, 'Name at least one case')
    .max(CASE_COPY_MAX, `At most ${CASE_COPY_MAX} cases at once`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each case may be named once'),
  targetOrg: IdSchema,
  ignoreDifferences: z.boolean().default(false),
});
export type CaseCopyBody = z.input<typeof CaseCopyBodySchema>;

export const CaseDiffBodySchema = z.object({
  envA: CaseEnvironmentNameSchema,
  idA: IdSchema,
  envB: CaseEnvironmentNameSchema,
  idB: IdSchema,
});
export type CaseDiffBody = z.infer<typeof CaseDiffBodySchema>;
export type CaseDiffResult = {
  same: boolean;
  message: string;
  a: Record<string, unknown>;
  b: Record<string, unknown>;
  /** The media files each case references, as each environment serves them. */
  mediaA: CaseMediaDigests;
  mediaB: CaseMediaDigests;
};

/**
 * One line of the copy's streamed answer (application/x-ndjson): a `progress` line per step of
 * each case, then exactly one `done` or `error` line.
 */
export type CaseCopyEvent =
  | { type: 'progress'; caseId: string; step: CaseCopyStep; done: number; total: number }
  | { type: 'done'; message: string; created: Array<{ sourceId: string; targetId: string }> }
  | {
      type: 'error';
      statusCode: number;
      code: string;
      message: string;
      /** The case that failed, when one did (not for a failure of the copy as a whole). */
      caseId?: string;
      details?: CaseCopyMismatch;
    };
/** Both sides of a case that is not the same after the copy (CASE_JSON_NOT_EQUAL). */
export type CaseCopyMismatch = {
  caseId: string;
  source: Record<string, unknown>;
  target: Record<string, unknown>;
  sourceMedia: CaseMediaDigests;
  targetMedia: CaseMediaDigests;
};
/** The steps of one case: dumped in the source, restored in the target, both fetched and compared. */
export const CASE_COPY_STEPS = ['dumped', 'restored', 'compared'] as const;
export type CaseCopyStep = (typeof CASE_COPY_STEPS)[number];
