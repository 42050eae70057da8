import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import {
  CASE_COPY_CONCURRENCY,
  CASE_MEDIA_PER_CASE_MAX,
  type CaseCopyEvent,
  type CaseMediaDigests,
  type CaseCopyStep,
  type CaseDiffResult,
  type CaseEnvironmentName,
  type CaseToolSearchQuery,
  type FoundCase,
  type FoundOrganisation,
} from '@patientsim/domain/cases/case-copy.schemas';
import type { Env } from '../../config/env.js';
import { auditAs, countedName } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { mediaIdsOf, mediaUrl } from '../media/media.service.js';
import { type CaseEnvironment, EnvironmentError, openEnvironment, type ToolCaller } from './case-environments.js';

/**
 * Whether two portable case documents hold the same data. Both sides are already portable (the
 * server fields a restore legitimately changes are out: id, access, shares, timed_access,
 * published, applab and the per-user fields), so the rest must match exactly; key order is free.
 */
export function sameDocument(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameDocument(item, b[index]));
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  const otherKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameDocument(left[key], right[key]));
}

function environment(env: Env, name: CaseEnvironmentName, caller: ToolCaller): CaseEnvironment {
  const found = openEnvironment(env, name, caller);
  if (!found)
    throw new AppError('CASE_ENVIRONMENT_UNKNOWN', { message: `The environment ${name} is not configured on this deployment.` });
  return found;
}

const reason = (error: unknown) => (error instanceof EnvironmentError ? error.message : 'unknown error');
const sourceFailure = (error: unknown) =>
  new AppError('CASE_SOURCE_FETCH_FAILED', { message: `${CASE_TEXTS.sourceFetchError}: ${reason(error)}` });
const targetFailure = (error: unknown) =>
  new AppError('CASE_TARGET_FETCH_FAILED', { message: `${CASE_TEXTS.targetFetchError}: ${reason(error)}` });

/** In one side of the comparison, any failure is that side's fetch error. */
async function onSide<T>(run: () => Promise<T>, failure: (error: unknown) => AppError): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw failure(error);
  }
}

/**
 * A case as the comparison sees it: its portable document, and the media files it shows as this
 * environment serves them (type, size and SHA-256 by URL; null when missing), so a case whose
 * pictures did not arrive is not "the same" (decision 0041).
 */
async function comparable(
  environment: CaseEnvironment,
  id: string,
): Promise<{ document: Record<string, unknown>; media: CaseMediaDigests }> {
  const document = await environment.fetch(id);
  const ids = mediaIdsOf(document);
  const digests = ids.length > 0 ? await environment.mediaDigests(ids) : {};
  return { document, media: Object.fromEntries(ids.map((mediaId) => [mediaUrl(mediaId), digests[mediaId] ?? null])) };
}

/** Compares case A of one environment with case B of another (spec section 4), media included. */
export async function diffCases(
  env: Env,
  caller: ToolCaller,
  { envA, idA, envB, idB }: { envA: CaseEnvironmentName; idA: string; envB: CaseEnvironmentName; idB: string },
): Promise<CaseDiffResult> {
  const a = environment(env, envA, caller);
  const b = environment(env, envB, caller);
  const [left, right] = await Promise.all([
    onSide(() => comparable(a, idA), sourceFailure),
    onSide(() => comparable(b, idB), targetFailure),
  ]);
  const same = sameDocument(left.document, right.document) && sameDocument(left.media, right.media);
  return {
    same,
    message: same ? CASE_TEXTS.same : CASE_TEXTS.different,
    a: left.document,
    b: right.document,
    mediaA: left.media,
    mediaB: right.media,
  };
}

/** A failure of one case of a copy: the error, and which case. */
class CaseFailure extends Error {
  constructor(
    readonly caseId: string,
    readonly error: AppError,
  ) {
    super(error.message);
  }
}

export type CopyRequest = {
  source: CaseEnvironmentName;
  target: CaseEnvironmentName;
  caseIds: string[];
  targetOrg: string;
  ignoreDifferences: boolean;
};

/** Resolves both environments first, so an unknown name is a plain 400 before anything streams. */
export function prepareCopy(env: Env, caller: ToolCaller, request: CopyRequest) {
  const source = environment(env, request.source, caller);
  const target = environment(env, request.target, caller);
  return (emit: (event: CaseCopyEvent) => void) => runCopy(caller, request, source, target, emit);
}

/**
 * Copies the cases, CASE_COPY_CONCURRENCY at a time: dump in the source, restore in the target
 * organisation, fetch both and compare. On any failure no further case starts, and every case
 * already created in the target is removed, so the target is left as it was. Emits progress, then
 * one `done` or `error` event; records the copy in the audit trail.
 */
async function runCopy(
  caller: ToolCaller,
  request: CopyRequest,
  source: CaseEnvironment,
  target: CaseEnvironment,
  emit: (event: CaseCopyEvent) => void,
): Promise<CaseCopyEvent> {
  const total = request.caseIds.length;
  const created: Array<{ sourceId: string; targetId: string }> = [];
  const createdMedia: string[] = [];
  let failure: CaseFailure | null = null;
  let next = 0;
  let done = 0;
  const step = (caseId: string, name: CaseCopyStep) => {
    if (name === 'compared') done += 1;
    emit({ type: 'progress', caseId, step: name, done, total });
  };

  /**
   * The media files the case shows that the target lacks go first, under the same ids, so the
   * restored document's `/media/{id}` URLs work there unchanged.
   */
  const carryMedia = async (dump: Record<string, unknown>) => {
    const ids = mediaIdsOf(dump);
    if (ids.length === 0) return;
    if (ids.length > CASE_MEDIA_PER_CASE_MAX) {
      throw sourceFailure(new EnvironmentError(`The case shows more than ${CASE_MEDIA_PER_CASE_MAX} media files.`));
    }
    const inTarget = await onSide(() => target.mediaDigests(ids), targetFailure);
    for (const id of ids.filter((mediaId) => inTarget[mediaId] === null)) {
      const file = await onSide(() => source.readMedia(id), sourceFailure);
      // A file the source cannot serve either: nothing to carry, and the comparison sees it missing on both sides.
      if (!file || failure) continue;
      if (await onSide(() => target.storeMedia(file), targetFailure)) createdMedia.push(id);
    }
  };

  const copyOne = async (caseId: string) => {
    const dump = await onSide(() => source.dump(caseId), sourceFailure);
    step(caseId, 'dumped');
    if (failure) return;
    await carryMedia(dump);
    if (failure) return;
    const targetId = await onSide(() => target.restore(dump, request.targetOrg), targetFailure);
    created.push({ sourceId: caseId, targetId });
    step(caseId, 'restored');
    const [inSource, inTarget] = await Promise.all([
      onSide(() => comparable(source, caseId), sourceFailure),
      onSide(() => comparable(target, targetId), targetFailure),
    ]);
    const same = sameDocument(inSource.document, inTarget.document) && sameDocument(inSource.media, inTarget.media);
    if (!request.ignoreDifferences && !same) {
      throw new AppError('CASE_JSON_NOT_EQUAL', {
        message: CASE_TEXTS.notEqualAfterCopy,
        details: {
          caseId,
          source: inSource.document,
          target: inTarget.document,
          sourceMedia: inSource.media,
          targetMedia: inTarget.media,
        },
      });
    }
    step(caseId, 'compared');
  };

  const worker = async () => {
    while (!failure && next < total) {
      const caseId = request.caseIds[next] as string;
      next += 1;
      try {
        await copyOne(caseId);
      } catch (error) {
        failure ??= new CaseFailure(caseId, error instanceof AppError ? error : targetFailure(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CASE_COPY_CONCURRENCY, total) }, worker));

  // Set by the workers; read once they are all done.
  const failedCase = failure as CaseFailure | null;
  const failed = failedCase?.error ?? null;
  let removed = 0;
  let removedMedia = 0;
  let cleanUpError: string | null = null;
  if (failed && created.length > 0) {
    try {
      removed = await target.remove(created.map((item) => item.targetId));
    } catch (error) {
      cleanUpError = reason(error);
    }
  }
  // After the cases: a file is removed only once no case there references it.
  if (failed && createdMedia.length > 0) {
    try {
      removedMedia = await target.removeMedia(createdMedia);
    } catch (error) {
      cleanUpError ??= reason(error);
    }
  }
  const result: CaseCopyEvent = failed
    ? {
        type: 'error',
        statusCode: failed.statusCode,
        code: failed.code,
        message: failed.message,
        ...(failedCase ? { caseId: failedCase.caseId } : {}),
        ...(failed.details ? { details: failed.details as Extract<CaseCopyEvent, { type: 'error' }>['details'] } : {}),
      }
    : { type: 'done', message: CASE_TEXTS.copied, created };
  await auditAs(
    caller.db,
    { id: caller.actorId },
    {
      action: 'case.copy',
      targetType: 'case',
      targetName: countedName(request.caseIds.length, 'case'),
      orgId: null,
      ipAddress: caller.ip,
      details: {
        source: request.source,
        target: request.target,
        targetOrg: request.targetOrg,
        caseIds: request.caseIds,
        ignoreDifferences: request.ignoreDifferences,
        result: failed ? failed.code : 'COPIED',
        created: created.map((item) => item.targetId),
        removed,
        createdMedia,
        removedMedia,
        ...(cleanUpError ? { cleanUpError } : {}),
      },
    },
  );
  emit(result);
  return result;
}

/** Cases by name (or exact id) in one environment, for picking the cases to copy or compare. */
export function searchCases(env: Env, caller: ToolCaller, { env: name, q }: CaseToolSearchQuery): Promise<FoundCase[]> {
  const found = environment(env, name, caller);
  return onSide(() => found.searchCases(q), sourceFailure);
}

/** Organisations by name in one environment, for picking the target organisation of a copy. */
export function searchOrganisations(
  env: Env,
  caller: ToolCaller,
  { env: name, q }: CaseToolSearchQuery,
): Promise<FoundOrganisation[]> {
  const found = environment(env, name, caller);
  return onSide(() => found.searchOrganisations(q), targetFailure);
}
