import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import {
  CASE_COPY_CONCURRENCY,
  type CaseCopyEvent,
  type CaseCopyStep,
  type CaseDiffResult,
  type CaseEnvironmentName,
} from '@patientsim/domain/cases/case-copy.schemas';
import type { Env } from '../../config/env.js';
import { audit, countedName } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
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

/** Compares case A of one environment with case B of another (spec section 4). */
export async function diffCases(
  env: Env,
  caller: ToolCaller,
  { envA, idA, envB, idB }: { envA: CaseEnvironmentName; idA: string; envB: CaseEnvironmentName; idB: string },
): Promise<CaseDiffResult> {
  const a = environment(env, envA, caller);
  const b = environment(env, envB, caller);
  const [docA, docB] = await Promise.all([onSide(() => a.fetch(idA), sourceFailure), onSide(() => b.fetch(idB), targetFailure)]);
  const same = sameDocument(docA, docB);
  return { same, message: same ? CASE_TEXTS.same : CASE_TEXTS.different, a: docA, b: docB };
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
  let failure: AppError | null = null;
  let next = 0;
  let done = 0;
  const step = (caseId: string, name: CaseCopyStep) => {
    if (name === 'compared') done += 1;
    emit({ type: 'progress', caseId, step: name, done, total });
  };

  const copyOne = async (caseId: string) => {
    const dump = await onSide(() => source.dump(caseId), sourceFailure);
    step(caseId, 'dumped');
    if (failure) return;
    const targetId = await onSide(() => target.restore(dump, request.targetOrg), targetFailure);
    created.push({ sourceId: caseId, targetId });
    step(caseId, 'restored');
    const [inSource, inTarget] = await Promise.all([
      onSide(() => source.fetch(caseId), sourceFailure),
      onSide(() => target.fetch(targetId), targetFailure),
    ]);
    if (!request.ignoreDifferences && !sameDocument(inSource, inTarget)) {
      throw new AppError('CASE_JSON_NOT_EQUAL', {
        message: CASE_TEXTS.notEqualAfterCopy,
        details: { caseId, source: inSource, target: inTarget },
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
        failure ??= error instanceof AppError ? error : targetFailure(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CASE_COPY_CONCURRENCY, total) }, worker));

  // Set by the workers; read once they are all done.
  const failed = failure as AppError | null;
  let removed = 0;
  let cleanUpError: string | null = null;
  if (failed && created.length > 0) {
    try {
      removed = await target.remove(created.map((item) => item.targetId));
    } catch (error) {
      cleanUpError = reason(error);
    }
  }
  const result: CaseCopyEvent = failed
    ? {
        type: 'error',
        statusCode: failed.statusCode,
        code: failed.code,
        message: failed.message,
        ...(failed.details ? { details: failed.details as Extract<CaseCopyEvent, { type: 'error' }>['details'] } : {}),
      }
    : { type: 'done', message: CASE_TEXTS.copied, created };
  await audit(caller.db, {
    actorId: caller.actorId,
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
      ...(cleanUpError ? { cleanUpError } : {}),
    },
  });
  emit(result);
  return result;
}
