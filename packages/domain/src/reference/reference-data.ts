import { z } from 'zod';
import { maximumBags } from '../cases/case-list.js';
import { FEATURE_AVAILABILITY, FEATURE_LABEL_KEYS, FEATURE_LABELS, FEATURES } from '../product/features.js';
import { PRODUCT_TYPE_LABEL, PRODUCT_TYPES } from '../product/product-types.js';
import { BODY_PARTS } from './body-parts.js';
import {
  DOSAGE_FORMS,
  INFUSION_BAG_VOLUMES,
  INFUSION_CONTAINERS,
  INFUSION_DOSING_TYPES,
  PUSH_TIME_FRAMES,
  UNIT_CATEGORIES,
  UNIT_TYPES,
} from './medication.js';
import { BODY_TYPES, POSITIONS } from './patient.js';
import { GAUGES, IV_CATEGORIES, NEEDLE_SETS, PLACEMENTS, PORT_NAMES, SIDES, SITES, TUBINGS } from './vascular-access.js';

/**
 * Everything spec section 3 lists as reference data, in one document: what GET /api/reference-data
 * answers to the scenario builder and the other applications of the platform. The schema below
 * describes that answer (and the OpenAPI document).
 */

const ProductTypeSchema = z.enum(PRODUCT_TYPES);
const KeyLabelSchema = z.object({ key: z.string(), label: z.string() });

export const ReferenceDataSchema = z.object({
  productTypes: z.array(z.object({ key: ProductTypeSchema, label: z.string() })),
  bodyParts: z.array(z.object({ key: z.string(), label: z.object({ en: z.string(), es: z.string().optional() }) })),
  dosageForms: z.array(KeyLabelSchema.extend({ secondCategory: z.enum(['VOLUME']).nullable() })),
  unitTypes: z.array(z.object({ key: z.string(), category: z.enum(UNIT_CATEGORIES), factor: z.number() })),
  pushTimeFrames: z.array(KeyLabelSchema.extend({ seconds: z.number().int().nullable() })),
  infusionBagVolumes: z.array(z.object({ volumeMl: z.number(), containers: z.array(z.enum(INFUSION_CONTAINERS)) })),
  infusionDosingTypes: z.array(KeyLabelSchema.extend({ unit: z.string(), basis: z.string() })),
  ivCategories: z.array(
    KeyLabelSchema.extend({ sites: z.array(z.string()), gauges: z.array(z.string()), needleSets: z.array(z.string()) }),
  ),
  sites: z.array(KeyLabelSchema.extend({ sides: z.array(z.string()) })),
  sides: z.array(KeyLabelSchema),
  gauges: z.array(KeyLabelSchema.extend({ scale: z.enum(['GAUGE', 'FRENCH']), size: z.number().int() })),
  needleSets: z.array(KeyLabelSchema.extend({ lengthMm: z.number() })),
  portNames: z.array(KeyLabelSchema),
  tubings: z.array(KeyLabelSchema.extend({ dropsPerMl: z.number().int() })),
  placements: z.array(
    KeyLabelSchema.extend({
      ports: z.array(z.object({ amount: z.number().int(), names: z.array(z.string()) })),
      sites: z.array(z.string()),
      gauges: z.array(z.string()),
      productTypes: z.array(ProductTypeSchema),
    }),
  ),
  positions: z.array(KeyLabelSchema),
  bodyTypes: z.array(KeyLabelSchema),
  maximumBags: z.record(ProductTypeSchema, z.number().int()),
  features: z.array(z.object({ key: z.enum(FEATURES), productTypes: z.array(ProductTypeSchema) })),
  featureLabels: z.record(ProductTypeSchema, z.partialRecord(z.enum(FEATURE_LABEL_KEYS), z.string())),
});
export type ReferenceData = z.infer<typeof ReferenceDataSchema>;

/** A deep copy (the document is plain JSON). */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The reference data document (plain, mutable copies of the constants). */
export function buildReferenceData(): ReferenceData {
  return clone({
    productTypes: PRODUCT_TYPES.map((key) => ({ key, label: PRODUCT_TYPE_LABEL[key] })),
    bodyParts: [...BODY_PARTS],
    dosageForms: [...DOSAGE_FORMS],
    unitTypes: [...UNIT_TYPES],
    pushTimeFrames: [...PUSH_TIME_FRAMES],
    infusionBagVolumes: INFUSION_BAG_VOLUMES.map((bag) => ({ volumeMl: bag.volumeMl, containers: [...bag.containers] })),
    infusionDosingTypes: [...INFUSION_DOSING_TYPES],
    ivCategories: IV_CATEGORIES.map((category) => ({
      ...category,
      sites: [...category.sites],
      gauges: [...category.gauges],
      needleSets: [...category.needleSets],
    })),
    sites: SITES.map((site) => ({ ...site, sides: [...site.sides] })),
    sides: [...SIDES],
    gauges: [...GAUGES],
    needleSets: [...NEEDLE_SETS],
    portNames: [...PORT_NAMES],
    tubings: [...TUBINGS],
    placements: PLACEMENTS.map((placement) => ({
      ...placement,
      ports: placement.ports.map((port) => ({ amount: port.amount, names: [...port.names] })),
      sites: [...placement.sites],
      gauges: [...placement.gauges],
      productTypes: [...placement.productTypes],
    })),
    positions: [...POSITIONS],
    bodyTypes: [...BODY_TYPES],
    maximumBags: Object.fromEntries(PRODUCT_TYPES.map((type) => [type, maximumBags(type)])) as ReferenceData['maximumBags'],
    features: FEATURES.map((key) => ({ key, productTypes: [...FEATURE_AVAILABILITY[key]] })),
    featureLabels: clone(FEATURE_LABELS),
  });
}
