import { ADD_FAVORITE_MUTATION, FavoriteSchema, REMOVE_FAVORITE_MUTATION } from '@patientsim/domain/cases/case-library.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { type CaseListData, caseListKey, mapCachedCases } from './get-case-configurations';
import { graphqlFetch } from '../../../lib/graphql';

/** Adds a case to the caller's favourites, or removes it. */
export async function setFavorite({ id, isFavorite }: { id: string; isFavorite: boolean }): Promise<void> {
  const variables = { id };
  if (isFavorite) {
    await graphqlFetch({ query: ADD_FAVORITE_MUTATION, variables, schema: z.object({ addFavorite: FavoriteSchema }) });
  } else {
    await graphqlFetch({ query: REMOVE_FAVORITE_MUTATION, variables, schema: z.object({ removeFavorite: FavoriteSchema }) });
  }
}

/**
 * The star (spec section 4): it changes at once in every cached page, rolls back if the save
 * fails, and the list is refetched after either (a Favorited filter then drops the case).
 */
export function useSetFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['cases', 'favorite'],
    mutationFn: setFavorite,
    onMutate: async ({ id, isFavorite }) => {
      await queryClient.cancelQueries({ queryKey: caseListKey });
      const previous = queryClient.getQueriesData<CaseListData>({ queryKey: caseListKey });
      queryClient.setQueriesData<CaseListData>({ queryKey: caseListKey }, (data) =>
        mapCachedCases(data, (item) => (item.id === id ? { ...item, isFavorite } : item)),
      );
      return { previous };
    },
    onError: (_error, _variables, context) => {
      for (const [key, data] of context?.previous ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseListKey }),
  });
}
