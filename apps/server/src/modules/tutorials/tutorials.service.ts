import type { ProductType } from '@patientsim/domain/product/product-types';
import { isTutorialCategory, type Tutorial, type TutorialCriteria } from '@patientsim/domain/tutorials/tutorial.schemas';
import type { Database } from '../../db/client.js';
import { mediaUrl } from '../media/media.service.js';
import * as repo from './tutorials.repository.js';

/** A bound on the list: the tutorials are a short, curated catalogue, not user data. */
const LIST_LIMIT = 200;

/**
 * The video tutorials for the criteria (decision 7), sorted by ordinal: those of the product
 * type (by default the caller's current one) and those for every product type.
 */
export async function listTutorials({
  db,
  criteria,
  callerProductType,
}: {
  db: Database;
  criteria: TutorialCriteria;
  callerProductType: ProductType;
}): Promise<Tutorial[]> {
  const productType = criteria.productType ?? callerProductType;
  const rows = await repo.findTutorials(db, {
    productType,
    category: criteria.category,
    limit: LIST_LIMIT,
  });
  return rows.flatMap((row) =>
    // A row of a category the product does not know would break the answer's schema: left out.
    isTutorialCategory(row.category)
      ? [
          {
            _id: row.id,
            title: row.title,
            mediaId: row.mediaId,
            category: row.category,
            // The query matched the product type or null, nothing else.
            productType: row.productType === null ? null : productType,
            ordinal: row.ordinal,
            mediaUrl: mediaUrl(row.mediaId),
          },
        ]
      : [],
  );
}
