import type { ProductType } from '../product/product-types.js';

/**
 * Vascular access reference data of spec section 3: IV categories, sites, sides, gauges, needle
 * sets, ports, tubings and the placements. The spec names the sites, the port amounts and names
 * and each placement's allowed values without listing them: the short lists here are this
 * product's choice (docs/decisions/0026-reference-data.md).
 */

export const SIDES = [
  { key: 'LEFT', label: 'Left' },
  { key: 'RIGHT', label: 'Right' },
  { key: 'CENTER', label: 'Center' },
] as const;
export type SideKey = (typeof SIDES)[number]['key'];

/** Where a line goes in, and on which sides (a midline site is only CENTER). */
export const SITES = [
  { key: 'HAND', label: 'Hand', sides: ['LEFT', 'RIGHT'] },
  { key: 'FOREARM', label: 'Forearm', sides: ['LEFT', 'RIGHT'] },
  { key: 'ANTECUBITAL', label: 'Antecubital', sides: ['LEFT', 'RIGHT'] },
  { key: 'UPPER_ARM', label: 'Upper Arm', sides: ['LEFT', 'RIGHT'] },
  { key: 'EXTERNAL_JUGULAR', label: 'External Jugular', sides: ['LEFT', 'RIGHT'] },
  { key: 'FOOT', label: 'Foot', sides: ['LEFT', 'RIGHT'] },
  { key: 'HUMERAL_HEAD', label: 'Humeral Head', sides: ['LEFT', 'RIGHT'] },
  { key: 'PROXIMAL_TIBIA', label: 'Proximal Tibia', sides: ['LEFT', 'RIGHT'] },
  { key: 'DISTAL_TIBIA', label: 'Distal Tibia', sides: ['LEFT', 'RIGHT'] },
  { key: 'STERNUM', label: 'Sternum', sides: ['CENTER'] },
  { key: 'INTERNAL_JUGULAR', label: 'Internal Jugular', sides: ['LEFT', 'RIGHT'] },
  { key: 'SUBCLAVIAN', label: 'Subclavian', sides: ['LEFT', 'RIGHT'] },
  { key: 'FEMORAL', label: 'Femoral', sides: ['LEFT', 'RIGHT'] },
  { key: 'CHEST_WALL', label: 'Chest Wall', sides: ['LEFT', 'RIGHT'] },
] as const satisfies readonly { key: string; label: string; sides: readonly SideKey[] }[];
export type SiteKey = (typeof SITES)[number]['key'];

/** Needle gauges 14G to 24G and catheter sizes 5FR to 12FR, every whole size (spec section 3). */
export type Gauge = { key: string; scale: 'GAUGE' | 'FRENCH'; size: number; label: string };
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
export const GAUGES: readonly Gauge[] = [
  ...range(14, 24).map((size) => ({ key: `${size}G`, scale: 'GAUGE' as const, size, label: `${size}G` })),
  ...range(5, 12).map((size) => ({ key: `${size}FR`, scale: 'FRENCH' as const, size, label: `${size}FR` })),
];
export const GAUGE_KEYS: readonly string[] = GAUGES.map((gauge) => gauge.key);

/** Intraosseous needle sets by length (spec section 3). */
export const NEEDLE_SETS = [
  { key: 'MM_15', lengthMm: 15, label: '15 mm' },
  { key: 'MM_25', lengthMm: 25, label: '25 mm' },
  { key: 'MM_38_5', lengthMm: 38.5, label: '38.5 mm' },
  { key: 'MM_45', lengthMm: 45, label: '45 mm' },
] as const;
export type NeedleSetKey = (typeof NEEDLE_SETS)[number]['key'];

/** Administration sets by drop factor (spec section 3). */
export const TUBINGS = [
  { key: 'GTT_10', dropsPerMl: 10, label: '10 gtt/mL' },
  { key: 'GTT_15', dropsPerMl: 15, label: '15 gtt/mL' },
  { key: 'GTT_60', dropsPerMl: 60, label: '60 gtt/mL' },
] as const;
export type TubingKey = (typeof TUBINGS)[number]['key'];

/** Names of a line's ports (lumens). */
export const PORT_NAMES = [
  { key: 'SINGLE', label: 'Single' },
  { key: 'DISTAL', label: 'Distal' },
  { key: 'MEDIAL', label: 'Medial' },
  { key: 'PROXIMAL', label: 'Proximal' },
  { key: 'SIDE_PORT', label: 'Side Port' },
  { key: 'ARTERIAL', label: 'Arterial' },
  { key: 'VENOUS', label: 'Venous' },
] as const;
export type PortNameKey = (typeof PORT_NAMES)[number]['key'];

/** A port amount a line may have, and the names its ports then carry. */
export type PortOption = { amount: number; names: readonly PortNameKey[] };

const LUMENS_1_TO_3: readonly PortOption[] = [
  { amount: 1, names: ['SINGLE'] },
  { amount: 2, names: ['DISTAL', 'PROXIMAL'] },
  { amount: 3, names: ['DISTAL', 'MEDIAL', 'PROXIMAL'] },
];

/** Peripheral and intraosseous lines (spec section 3), with the sites, gauges and needle sets they allow. */
export const IV_CATEGORIES = [
  {
    key: 'PERIPHERAL',
    label: 'Peripheral',
    sites: ['HAND', 'FOREARM', 'ANTECUBITAL', 'UPPER_ARM', 'EXTERNAL_JUGULAR', 'FOOT'],
    gauges: ['14G', '16G', '18G', '20G', '22G', '24G'],
    needleSets: [],
  },
  {
    key: 'INTRAOSSEOUS',
    label: 'Intraosseous',
    sites: ['HUMERAL_HEAD', 'PROXIMAL_TIBIA', 'DISTAL_TIBIA', 'STERNUM'],
    gauges: ['15G'],
    needleSets: ['MM_15', 'MM_25', 'MM_38_5', 'MM_45'],
  },
] as const satisfies readonly {
  key: string;
  label: string;
  sites: readonly SiteKey[];
  gauges: readonly string[];
  needleSets: readonly NeedleSetKey[];
}[];
export type IvCategoryKey = (typeof IV_CATEGORIES)[number]['key'];

export type Placement = {
  key: string;
  label: string;
  ports: readonly PortOption[];
  sites: readonly SiteKey[];
  gauges: readonly string[];
  productTypes: readonly ProductType[];
};

/**
 * The placed lines (spec section 3). Product types: every placement in NURSING and MILITARY;
 * EMS meets the long-term lines a patient arrives with (central line, PICC, PortaCath) but does
 * not place introducers, sheaths or dialysis catheters.
 */
export const PLACEMENTS = [
  {
    key: 'CENTRAL_LINE',
    label: 'Central Line',
    ports: LUMENS_1_TO_3,
    sites: ['INTERNAL_JUGULAR', 'SUBCLAVIAN', 'FEMORAL'],
    gauges: ['7FR'],
    productTypes: ['EMS', 'NURSING', 'MILITARY'],
  },
  {
    key: 'PICC',
    label: 'PICC',
    ports: LUMENS_1_TO_3,
    sites: ['UPPER_ARM'],
    gauges: ['5FR', '6FR'],
    productTypes: ['EMS', 'NURSING', 'MILITARY'],
  },
  {
    key: 'PORTACATH',
    label: 'PortaCath',
    ports: [
      { amount: 1, names: ['SINGLE'] },
      { amount: 2, names: ['DISTAL', 'PROXIMAL'] },
    ],
    sites: ['CHEST_WALL'],
    gauges: ['19G', '20G', '22G'],
    productTypes: ['EMS', 'NURSING', 'MILITARY'],
  },
  {
    key: 'INTRODUCER',
    label: 'Introducer',
    ports: [{ amount: 1, names: ['SIDE_PORT'] }],
    sites: ['INTERNAL_JUGULAR', 'SUBCLAVIAN', 'FEMORAL'],
    gauges: ['8FR', '9FR'],
    productTypes: ['NURSING', 'MILITARY'],
  },
  {
    key: 'SHEATH',
    label: 'Sheath',
    ports: [{ amount: 1, names: ['SIDE_PORT'] }],
    sites: ['FEMORAL'],
    gauges: ['5FR', '6FR', '7FR', '8FR', '9FR', '10FR', '11FR', '12FR'],
    productTypes: ['NURSING', 'MILITARY'],
  },
  {
    key: 'DIALYSIS_CATHETER',
    label: 'Dialysis Catheter',
    ports: [{ amount: 2, names: ['ARTERIAL', 'VENOUS'] }],
    sites: ['INTERNAL_JUGULAR', 'SUBCLAVIAN', 'FEMORAL'],
    gauges: ['11FR', '12FR'],
    productTypes: ['NURSING', 'MILITARY'],
  },
] as const satisfies readonly Placement[];
export type PlacementKey = (typeof PLACEMENTS)[number]['key'];

/** The placements a product type offers. */
export function placementsFor(productType: ProductType): Placement[] {
  return PLACEMENTS.filter((placement) => (placement.productTypes as readonly ProductType[]).includes(productType));
}
