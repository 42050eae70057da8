import { CASE_CONFIGURATION_QUERY, CaseListItemSchema, type CaseListItem } from '@patientsim/domain/cases/case-library.schemas';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlFetch } from '../../../lib/graphql';

/** One case the caller may read, with the library's fields; null when there is none they may read. */
export async function getCaseConfiguration(id: string, signal?: AbortSignal): Promise<CaseListItem | null> {
  const data = await graphqlFetch({
    query: CASE_CONFIGURATION_QUERY,
    variables: { id },
    schema: z.object({ caseConfiguration: CaseListItemSchema.nullable() }),
    ...(signal ? { signal } : {}),
  });
  return data.caseConfiguration;
}

export const caseConfigurationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['cases', 'case', id],
    queryFn: ({ signal }) => getCaseConfiguration(id, signal),
  });

/** The case a link names (`?caseId=`), when the library has not loaded it. */
export function useCaseConfiguration(id: string | null, { isEnabled = true } = {}) {
  return useQuery({ ...caseConfigurationQueryOptions(id ?? ''), enabled: isEnabled && id !== null });
}

/**
 * Starts the case's own query from the copy a list page holds, as stale data: when a refreshed list
 * no longer holds the case, its preview stays on that copy while the case is read again.
 */
export function seedCaseConfiguration(queryClient: QueryClient, item: CaseListItem): void {
  queryClient.setQueryData(caseConfigurationQueryOptions(item.id).queryKey, item, { updatedAt: 0 });
}
