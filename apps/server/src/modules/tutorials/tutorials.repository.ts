import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { TutorialCategory } from '@patientsim/domain/tutorials/tutorial.schemas';
import type { Database } from '../../db/client.js';
import { tutorial } from '../../db/schema/tutorials.js';

/** Tutorials of one product type or of every product type (null), optionally of one category, by ordinal. */
export function findTutorials(
  db: Database,
  { productType, category, limit }: { productType: ProductType; category: TutorialCategory | undefined; limit: number },
) {
  return db
    .select()
    .from(tutorial)
    .where(
      and(
        or(eq(tutorial.productType, productType), isNull(tutorial.productType)),
        category ? eq(tutorial.category, category) : undefined,
      ),
    )
    .orderBy(asc(tutorial.ordinal), asc(tutorial.title), asc(tutorial.id))
    .limit(limit);
}
