import type { CaseUpdateChoice } from '@patientsim/domain/cases/case-list';
import {
  type CaseUpdateResult,
  CaseUpdateResultSchema,
  UPDATE_EFFECT_CHAINS_MUTATION,
} from '@patientsim/domain/cases/case-library.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { type CaseListData, caseListKey, mapCachedCases } from './get-case-configurations';
import { graphqlFetch } from '../../../lib/graphql';

export type CaseUpdateDecision = { id: string; choice: CaseUpdateChoice };

/** Applies (YES) or declines (NO) the pending effect-chain update of each case. */
export async function updateEffectChains(decisions: CaseUpdateDecision[]): Promise<CaseUpdateResult[]> {
  const data = await graphqlFetch({
    query: UPDATE_EFFECT_CHAINS_MUTATION,
    variables: { decisions },
    schema: z.object({ updateEffectChains: z.array(CaseUpdateResultSchema) }),
  });
  return data.updateEffectChains;
}

/**
 * Confirms the Y/N choices: each case's new status goes into the cached pages at once (the
 * Update column shows it), then the list is refetched, as the default order puts cases needing an
 * update first.
 */
export function useUpdateEffectChains() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['cases', 'update-effect-chains'],
    mutationFn: updateEffectChains,
    onSuccess: (results) => {
      const byId = new Map(results.map((result) => [result.id, result]));
      queryClient.setQueriesData<CaseListData>({ queryKey: caseListKey }, (data) =>
        mapCachedCases(data, (item) => {
          const result = byId.get(item.id);
          return result
            ? {
                ...item,
                updateStatus: result.updateStatus ?? null,
                ignoreEcUpdate: result.ignoreEcUpdate,
                needsEcUpdate: item.needsEcUpdate && !result.updateStatus && !result.ignoreEcUpdate,
              }
            : item;
        }),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseListKey }),
  });
}
