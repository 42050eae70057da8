import { type CaseFilters, type CaseSort, CASE_PAGE_SIZE } from '@patientsim/domain/cases/case-list';
import {
  CASE_LIBRARY_QUERY,
  CaseListPageSchema,
  type CaseListItem,
  type CaseListPage,
} from '@patientsim/domain/cases/case-library.schemas';
import { type InfiniteData, infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlFetch } from '../../../lib/graphql';

export type CaseListRequest = {
  /** Null: the default order (decision 11). */
  sort: CaseSort | null;
  filters: CaseFilters;
  /** Trimmed; empty searches nothing. */
  search: string;
};

/** One page of the caller's scenario library. */
export async function getCaseConfigurations(
  { sort, filters, search }: CaseListRequest,
  after: string | null,
  signal?: AbortSignal,
): Promise<CaseListPage> {
  const activeFilters = Object.fromEntries(Object.entries(filters).filter(([, isOn]) => isOn));
  const data = await graphqlFetch({
    query: CASE_LIBRARY_QUERY,
    variables: {
      sortBy: sort,
      filters: Object.keys(activeFilters).length > 0 ? activeFilters : null,
      search: search || null,
      first: CASE_PAGE_SIZE,
      after,
    },
    schema: z.object({ caseConfigurations: CaseListPageSchema }),
    ...(signal ? { signal } : {}),
  });
  return data.caseConfigurations;
}

/** Every sort, filter and search of the library lives under this key. */
export const caseListKey = ['cases', 'list'] as const;

export const caseConfigurationsQueryOptions = (request: CaseListRequest) =>
  infiniteQueryOptions({
    queryKey: [...caseListKey, request],
    queryFn: ({ pageParam, signal }) => getCaseConfigurations(request, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // The rows shown stay (under a progress bar) while another sort, filter or search loads.
    placeholderData: keepPreviousData,
  });

export function useCaseConfigurations(request: CaseListRequest, { isEnabled = true } = {}) {
  return useInfiniteQuery({ ...caseConfigurationsQueryOptions(request), enabled: isEnabled });
}

export type CaseListData = InfiniteData<CaseListPage, string | null>;

/** Changes the cases of every cached library page that `change` picks (favourite, update status). */
export function mapCachedCases(
  data: CaseListData | undefined,
  change: (item: CaseListItem) => CaseListItem,
): CaseListData | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(change) })) };
}
