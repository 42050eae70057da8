/**
 * The Cases tool (spec sections 2, 4 and 7; decision 17): copying cases between deployments and
 * comparing two cases. Shared by the server, which validates with these, and the console's screen.
 */
import { z } from 'zod';
import { IdSchema } from '../common/api.schemas.js';
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

// ----- the tool's own routes (the super admin's browser) -----

export type CaseEnvironmentsResult = { environments: Array<{ name: CaseEnvironmentName; current: boolean }> };

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
      details?: { caseId: string; source: Record<string, unknown>; target: Record<string, unknown> };
    };
/** The steps of one case: dumped in the source, restored in the target, both fetched and compared. */
export const CASE_COPY_STEPS = ['dumped', 'restored', 'compared'] as const;
export type CaseCopyStep = (typeof CASE_COPY_STEPS)[number];
