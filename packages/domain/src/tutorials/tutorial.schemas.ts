import { z } from 'zod';
import { TextSchema } from '../common/api.schemas.js';
import { PRODUCT_TYPES, type ProductType } from '../product/product-types.js';

/** Tutorial categories (spec section 3), in the order the video tutorial drawer lists them. */
export const TUTORIAL_CATEGORIES = ['SCENARIO_BUILDER', 'SCENARIO_SELECT', 'SCENARIO_LOGIC', 'ORG_MANAGEMENT'] as const;
export type TutorialCategory = (typeof TUTORIAL_CATEGORIES)[number];

/** The drawer's accordion labels (spec section 2). */
export const TUTORIAL_CATEGORY_LABEL: Record<TutorialCategory, string> = {
  SCENARIO_BUILDER: 'Scenario Builder',
  SCENARIO_SELECT: 'Scenario Select',
  SCENARIO_LOGIC: 'Scenario Logic',
  ORG_MANAGEMENT: 'Org Management',
};

export function isTutorialCategory(value: unknown): value is TutorialCategory {
  return typeof value === 'string' && (TUTORIAL_CATEGORIES as readonly string[]).includes(value);
}

/** Longest `filter` query value accepted; the spec's shape needs well under 200 characters. */
export const TUTORIAL_FILTER_MAX = 500;

const ProductTypeClauseSchema = z.strictObject({ productType: z.enum(PRODUCT_TYPES).nullable() });

/**
 * The spec's filter (section 7, decision 7): `{ category, $or: [{ productType: null }, { productType }] }`.
 * Strict: no other fields or operators. `$or` holds exactly one null clause and one product type,
 * in either order.
 */
export const TutorialFilterSchema = z.strictObject({
  category: z.enum(TUTORIAL_CATEGORIES).optional(),
  $or: z
    .array(ProductTypeClauseSchema)
    .length(2)
    .refine(
      (clauses) => clauses.filter((clause) => clause.productType === null).length === 1,
      'Must be [{"productType":null},{"productType":<product type>}]',
    )
    .optional(),
});
export type TutorialFilter = z.infer<typeof TutorialFilterSchema>;

/** What the tutorial list is narrowed to; a missing product type means the caller's own. */
export type TutorialCriteria = { category?: TutorialCategory; productType?: ProductType };

/** The `filter` text as criteria, or the reason it is refused. */
export function parseTutorialFilter(
  text: string,
): { success: true; data: TutorialCriteria } | { success: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { success: false, message: 'Must be JSON' };
  }
  const parsed = TutorialFilterSchema.safeParse(json);
  if (!parsed.success) return { success: false, message: parsed.error.issues[0]?.message ?? 'Invalid filter' };
  const productType = parsed.data.$or?.find((clause) => clause.productType !== null)?.productType ?? undefined;
  return {
    success: true,
    data: {
      ...(parsed.data.category ? { category: parsed.data.category } : {}),
      ...(productType ? { productType } : {}),
    },
  };
}

/**
 * `GET /tutorials` query (decision 7): `category` and `productType`, or the spec's `filter` JSON,
 * not both.
 */
export const TutorialListQuerySchema = z
  .object({
    category: z.enum(TUTORIAL_CATEGORIES).optional(),
    productType: z.enum(PRODUCT_TYPES).optional(),
    filter: TextSchema.min(2).max(TUTORIAL_FILTER_MAX).optional(),
  })
  .superRefine((query, context) => {
    if (query.filter === undefined) return;
    if (query.category !== undefined || query.productType !== undefined) {
      context.addIssue({ code: 'custom', path: ['filter'], message: 'Use either filter or category and productType' });
      return;
    }
    const parsed = parseTutorialFilter(query.filter);
    if (!parsed.success) context.addIssue({ code: 'custom', path: ['filter'], message: parsed.message });
  });
export type TutorialListQuery = z.infer<typeof TutorialListQuerySchema>;

/** The criteria of a query that passed `TutorialListQuerySchema`. */
export function tutorialCriteria(query: TutorialListQuery): TutorialCriteria {
  if (query.filter !== undefined) {
    const parsed = parseTutorialFilter(query.filter);
    return parsed.success ? parsed.data : {};
  }
  return {
    ...(query.category ? { category: query.category } : {}),
    ...(query.productType ? { productType: query.productType } : {}),
  };
}

/** A tutorial (spec section 3) plus the URL its video plays from. */
export const TutorialSchema = z.object({
  _id: z.string(),
  title: z.string(),
  mediaId: z.string(),
  category: z.enum(TUTORIAL_CATEGORIES),
  productType: z.enum(PRODUCT_TYPES).nullable(),
  ordinal: z.number().int(),
  mediaUrl: z.string(),
});
export type Tutorial = z.infer<typeof TutorialSchema>;

export const TutorialListResponseSchema = z.object({ data: z.object({ tutorials: z.array(TutorialSchema) }) });
export type TutorialListResponse = z.infer<typeof TutorialListResponseSchema>;
