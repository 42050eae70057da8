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
});
export type CaseUpdateResult = z.infer<typeof CaseUpdateResultSchema>;
