import type {
  CaseCopyBody,
  CaseCopyEvent,
  CaseDiffBody,
  CaseDiffResult,
  CaseEnvironmentName,
  CaseEnvironmentsResult,
} from '@patientsim/domain/cases/case-copy.schemas';
import { FoundCasesSchema, FoundOrganisationsSchema } from '@patientsim/domain/cases/case-copy.schemas';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch, apiFetchLines } from '../../../lib/api-client';

/** Every environment of the Cases tool, which one this is and which are configured (GET /api/cases/tool/environments). */
export function useCaseEnvironments() {
  return useQuery({
    queryKey: ['cases', 'tool', 'environments'],
    queryFn: ({ signal }) => apiFetch<CaseEnvironmentsResult>('/api/cases/tool/environments', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Cases by name (or exact id) in one environment (GET /api/cases/tool/cases); searches once both are set. */
export function useCaseSearch(env: CaseEnvironmentName | '', term: string) {
  return useQuery({
    queryKey: ['cases', 'tool', 'cases', { env, term }],
    queryFn: ({ signal }) => apiFetch('/api/cases/tool/cases', { query: { env, q: term }, signal, schema: FoundCasesSchema }),
    select: (answer) => answer.cases,
    enabled: env !== '' && term !== '',
    placeholderData: keepPreviousData,
  });
}

/** Organisations by name in one environment (GET /api/cases/tool/organisations); searches once both are set. */
export function useEnvironmentOrganisationSearch(env: CaseEnvironmentName | '', term: string) {
  return useQuery({
    queryKey: ['cases', 'tool', 'organisations', { env, term }],
    queryFn: ({ signal }) =>
      apiFetch('/api/cases/tool/organisations', {
        query: { env, q: term },
        signal,
        schema: FoundOrganisationsSchema,
      }),
    select: (answer) => answer.organisations,
    enabled: env !== '' && term !== '',
    placeholderData: keepPreviousData,
  });
}

/** Compares two cases (POST /api/cases/tool/diff). */
export function useCaseDiff() {
  return useMutation({
    mutationFn: (body: CaseDiffBody) => apiFetch<CaseDiffResult>('/api/cases/tool/diff', { method: 'POST', body }),
  });
}

/**
 * Copies cases (POST /api/cases/tool/copy): each progress line goes to `onEvent` as the server
 * sends it; resolves with the final `done` or `error` line.
 */
async function copyCases(
  body: CaseCopyBody,
  onEvent: (event: CaseCopyEvent) => void,
): Promise<Extract<CaseCopyEvent, { type: 'done' | 'error' }>> {
  let last: Extract<CaseCopyEvent, { type: 'done' | 'error' }> | null = null;
  await apiFetchLines('/api/cases/tool/copy', { method: 'POST', body }, (line) => {
    const event = line as CaseCopyEvent;
    if (event.type === 'done' || event.type === 'error') last = event;
    onEvent(event);
  });
  return last ?? { type: 'error', statusCode: 0, code: 'UNKNOWN_ERROR', message: 'Unknown error' };
}

/**
 * Copies cases through the mutation cache: pending while the lines stream, its data the final
 * `done` or `error` line, its error a refusal before anything started.
 */
export function useCopyCases(onEvent: (event: CaseCopyEvent) => void) {
  return useMutation({ mutationFn: (body: CaseCopyBody) => copyCases(body, onEvent) });
}
