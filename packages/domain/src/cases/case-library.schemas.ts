import { z } from 'zod';
import { CASE_UPDATE_STATUSES } from './case-list.js';

/**
 * The case fields the scenario library reads from the `caseConfigurations` query (the GraphQL
 * contract's CaseConfiguration, as far as the list and its preview select it).
 */
const CaptionSchema = z.object({ en: z.string() });
const PictureSchema = z.object({ url: z.string() }).nullable().optional();
const CaptionedTextSchema = z.object({ caption: CaptionSchema, displayed: z.boolean() }).nullable().optional();

export const CaseListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.string().nullable().optional(),
  dispatch: z.object({ learningObjectives: CaptionedTextSchema, chiefComplaint: CaptionedTextSchema }).nullable().optional(),
  author: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
  _avatar: z.object({ id: z.string(), name: CaptionSchema, picture: PictureSchema }).nullable().optional(),
  _startLocation: z.object({ name: CaptionSchema, picture: PictureSchema }).nullable().optional(),
  _endLocation: z.object({ name: CaptionSchema, picture: PictureSchema }).nullable().optional(),
  isTemplate: z.boolean(),
  isFavorite: z.boolean(),
  lastPlayed: z.string().nullable().optional(),
  lastAccessed: z.string().nullable().optional(),
  createdAt: z.string(),
  needsEcUpdate: z.boolean(),
  ignoreEcUpdate: z.boolean(),
  updateStatus: z.enum(CASE_UPDATE_STATUSES).nullable().optional(),
  errorsCount: z.number().int(),
  warningsCount: z.number().int(),
  origin: z.string().nullable().optional(),
  published: z.boolean(),
  applab: z.boolean(),
  canUpdate: z.boolean(),
});
export type CaseListItem = z.infer<typeof CaseListItemSchema>;

export const CaseListPageSchema = z.object({
  items: z.array(CaseListItemSchema),
  nextCursor: z.string().nullable(),
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type CaseListPage = z.infer<typeof CaseListPageSchema>;

export const CaseUpdateResultSchema = z.object({
  id: z.string(),
  updateStatus: z.enum(CASE_UPDATE_STATUSES).nullable().optional(),
  ignoreEcUpdate: z.boolean(),
  error: z.string().nullable().optional(),
  errorCode: z.string().nullable().optional(),
});
export type CaseUpdateResult = z.infer<typeof CaseUpdateResultSchema>;

/**
 * The GraphQL documents the scenario library sends: here, beside the answers they read, so that
 * the server's tests hold them to the endpoint's bounds.
 */
export const CASE_LIST_FIELDS = `
  id name tags
  dispatch { learningObjectives { caption { en } displayed } chiefComplaint { caption { en } displayed } }
  author { id name }
  _avatar { id name { en } picture { url } }
  _startLocation { name { en } picture { url } }
  _endLocation { name { en } picture { url } }
  isTemplate isFavorite lastPlayed lastAccessed createdAt
  needsEcUpdate ignoreEcUpdate updateStatus errorsCount warningsCount
  origin published applab canUpdate
`;

/** One page of the caller's library. */
export const CASE_LIBRARY_QUERY = `query CaseLibrary($sortBy: CaseSortInput, $filters: CaseFiltersInput, $search: String, $first: Int, $after: String) {
  caseConfigurations(withAccess: READ, sortBy: $sortBy, filters: $filters, search: $search, first: $first, after: $after) {
    items { ${CASE_LIST_FIELDS} }
    nextCursor
    totalCount
    totalCountCapped
  }
}`;

/** One case a link names (`?caseId=`). */
export const CASE_CONFIGURATION_QUERY = `query CaseConfiguration($id: ID!) {
  caseConfiguration(id: $id) { ${CASE_LIST_FIELDS} }
}`;

/** What adding or removing a favourite answers: the case and whether it is now a favourite. */
export const FavoriteSchema = z.object({ id: z.string(), isFavorite: z.boolean() });
export const ADD_FAVORITE_MUTATION = 'mutation AddFavorite($id: ID!) { addFavorite(id: $id) { id isFavorite } }';
export const REMOVE_FAVORITE_MUTATION = 'mutation RemoveFavorite($id: ID!) { removeFavorite(id: $id) { id isFavorite } }';

export const UPDATE_EFFECT_CHAINS_MUTATION = `mutation UpdateEffectChains($decisions: [CaseUpdateDecisionInput!]!) {
  updateEffectChains(decisions: $decisions) { id updateStatus ignoreEcUpdate error errorCode }
}`;
