import type {
  CaseCopyBody,
  CaseCopyEvent,
  CaseDiffBody,
  CaseDiffResult,
  CaseEnvironmentsResult,
} from '@patientsim/domain/cases/case-copy.schemas';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch, apiFetchLines } from '../../../lib/api-client';
import { requireIdToken } from '../../../lib/id-token';

/** The environments this deployment's Cases tool knows, by name (GET /api/cases/tool/environments). */
export function useCaseEnvironments() {
  return useQuery({
    queryKey: ['cases', 'tool', 'environments'],
    queryFn: ({ signal }) =>
      apiFetch<CaseEnvironmentsResult>('/api/cases/tool/environments', { token: requireIdToken(), signal }),
    staleTime: 5 * 60_000,
  });
}

/** Compares two cases (POST /api/cases/tool/diff). */
export function useCaseDiff() {
  return useMutation({
    mutationFn: (body: CaseDiffBody) =>
      apiFetch<CaseDiffResult>('/api/cases/tool/diff', { method: 'POST', token: requireIdToken(), body }),
  });
}

/**
 * Copies cases (POST /api/cases/tool/copy): each progress line goes to `onEvent` as the server
 * sends it; resolves with the final `done` or `error` line.
 */
export async function copyCases(
  body: CaseCopyBody,
  onEvent: (event: CaseCopyEvent) => void,
): Promise<Extract<CaseCopyEvent, { type: 'done' | 'error' }>> {
  let last: Extract<CaseCopyEvent, { type: 'done' | 'error' }> | null = null;
  await apiFetchLines('/api/cases/tool/copy', { method: 'POST', token: requireIdToken(), body }, (line) => {
    const event = line as CaseCopyEvent;
    if (event.type === 'done' || event.type === 'error') last = event;
    onEvent(event);
  });
  return last ?? { type: 'error', statusCode: 0, code: 'UNKNOWN_ERROR', message: 'Unknown error' };
}
