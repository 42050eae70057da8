import type { ProductType } from './product-types.js';

/**
 * Feature availability and label overrides by product type (spec section 1). A feature is
 * available where its list names the product type; a label override replaces the builder's
 * default wording for that product type. See docs/decisions/0026-reference-data.md.
 */
export const FEATURES = ['DISPATCH_CODE_STATUS', 'DISPATCH_CERTIFICATION_LEVEL', 'APP_LAB'] as const;
export type Feature = (typeof FEATURES)[number];

export const FEATURE_AVAILABILITY: Record<Feature, readonly ProductType[]> = {
  // Spec section 1.
  DISPATCH_CODE_STATUS: ['NURSING'],
  DISPATCH_CERTIFICATION_LEVEL: ['EMS'],
  // Every product type has an App Lab organisation (spec section 4: "the app-lab organisation for
  // the product type"), so each template tab shows the App Lab column.
  APP_LAB: ['EMS', 'NURSING', 'MILITARY'],
};

export function isFeatureAvailable(feature: Feature, productType: ProductType): boolean {
  return FEATURE_AVAILABILITY[feature].includes(productType);
}

/** The labelled concepts whose wording differs by product type. */
export const FEATURE_LABEL_KEYS = ['TRANSFER_OF_CARE', 'CHART', 'GOAL'] as const;
export type FeatureLabelKey = (typeof FEATURE_LABEL_KEYS)[number];

/**
 * Spec section 1: NURSING uses Transfer of Care, Chart and Outcome; EMS and MILITARY use Goal.
 * A key absent for a product type has no override there.
 */
export const FEATURE_LABELS: Record<ProductType, Partial<Record<FeatureLabelKey, string>>> = {
  EMS: { GOAL: 'Goal' },
  NURSING: { TRANSFER_OF_CARE: 'Transfer of Care', CHART: 'Chart', GOAL: 'Outcome' },
  MILITARY: { GOAL: 'Goal' },
};

/** The product type's wording for a concept, or null when it has no override. */
export function featureLabel(key: FeatureLabelKey, productType: ProductType): string | null {
  return FEATURE_LABELS[productType][key] ?? null;
}
