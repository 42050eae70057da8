import {
  TUTORIAL_CATEGORIES,
  type Tutorial,
  type TutorialCategory,
  TutorialListResponseSchema,
} from '@patientsim/domain/tutorials/tutorial.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export type TutorialsByCategory = Record<TutorialCategory, Tutorial[]>;

/** The tutorials of each category, in the drawer's category order, each kept in the server's ordinal order. */
export function groupByCategory(tutorials: readonly Tutorial[]): TutorialsByCategory {
  const groups = Object.fromEntries(TUTORIAL_CATEGORIES.map((category) => [category, [] as Tutorial[]])) as TutorialsByCategory;
  for (const tutorial of tutorials) groups[tutorial.category].push(tutorial);
  return groups;
}

/**
 * The video tutorials of every category for the caller's current product type (the server's
 * default), and those for every product type, sorted by ordinal (spec section 7, decision 7).
 */
export async function getTutorials(): Promise<TutorialsByCategory> {
  const response = await apiFetch('/api/users/tutorials', { schema: TutorialListResponseSchema });
  return groupByCategory(response.data.tutorials);
}

/**
 * Keyed by the active organisation: the server answers for the caller's current product type,
 * which is the active organisation's.
 */
export const tutorialsQueryOptions = (activeOrgId: string | null) =>
  queryOptions({ queryKey: ['tutorials', 'list', activeOrgId], queryFn: getTutorials });

export function useTutorials(activeOrgId: string | null) {
  return useQuery(tutorialsQueryOptions(activeOrgId));
}
