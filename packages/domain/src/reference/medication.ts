/**
 * Medication reference data of spec section 3: dosage forms, unit types, push time frames,
 * infusion bags and infusion dosing types. The ~95 medication groups are not listed: the spec
 * does not show their names (docs/decisions/0026-reference-data.md).
 */

/** Dosage forms in the spec's order; solution and suspension take volume as the second category. */
export const DOSAGE_FORMS = [
  { key: 'UNIT', label: 'Unit', secondCategory: null },
  { key: 'MDI', label: 'MDI', secondCategory: null },
  { key: 'TABLET', label: 'Tablet', secondCategory: null },
  { key: 'PILL', label: 'Pill', secondCategory: null },
  { key: 'CAPSULE', label: 'Capsule', secondCategory: null },
  { key: 'BOTTLE', label: 'Bottle', secondCategory: null },
  { key: 'DROP', label: 'Drop', secondCategory: null },
  { key: 'INCH', label: 'Inch', secondCategory: null },
  { key: 'SPRAY', label: 'Spray', secondCategory: null },
  { key: 'TUBE', label: 'Tube', secondCategory: null },
  { key: 'PACKET', label: 'Packet', secondCategory: null },
  { key: 'ACTUATION', label: 'Actuation', secondCategory: null },
  { key: 'PATCH', label: 'Patch', secondCategory: null },
  { key: 'TOPICAL_OINTMENT', label: 'Topical Ointment', secondCategory: null },
  { key: 'ODT', label: 'ODT', secondCategory: null },
  { key: 'SUPPOSITORY', label: 'Suppository', secondCategory: null },
  { key: 'BULLET', label: 'Bullet', secondCategory: null },
  { key: 'LOZENGE', label: 'Lozenge', secondCategory: null },
  { key: 'GEL', label: 'Gel', secondCategory: null },
  { key: 'AUTOINJECTOR', label: 'Autoinjector', secondCategory: null },
  { key: 'SOLUTION', label: 'Solution', secondCategory: 'VOLUME' },
  { key: 'SUSPENSION', label: 'Suspension', secondCategory: 'VOLUME' },
] as const satisfies readonly { key: string; label: string; secondCategory: 'VOLUME' | null }[];
export type DosageForm = (typeof DOSAGE_FORMS)[number];
export type DosageFormKey = DosageForm['key'];

export function dosageFormTakesVolume(key: DosageFormKey): boolean {
  return DOSAGE_FORMS.some((form) => form.key === key && form.secondCategory === 'VOLUME');
}

/**
 * Unit types by category. `factor` converts to the category's first unit (g, mL, mEq, unit).
 * Countable doses are counted in the dosage form itself ("2 Tablet"), so that category names no
 * units of its own.
 */
export const UNIT_CATEGORIES = ['WEIGHT', 'VOLUME', 'EQUIVALENT', 'UNITS', 'COUNTABLE'] as const;
export type UnitCategory = (typeof UNIT_CATEGORIES)[number];

export const UNIT_TYPES = [
  { key: 'g', category: 'WEIGHT', factor: 1 },
  { key: 'mg', category: 'WEIGHT', factor: 1e-3 },
  { key: 'mcg', category: 'WEIGHT', factor: 1e-6 },
  { key: 'ng', category: 'WEIGHT', factor: 1e-9 },
  { key: 'mL', category: 'VOLUME', factor: 1 },
  { key: 'cc', category: 'VOLUME', factor: 1 },
  { key: 'L', category: 'VOLUME', factor: 1000 },
  { key: 'mEq', category: 'EQUIVALENT', factor: 1 },
  { key: 'unit', category: 'UNITS', factor: 1 },
  { key: 'mUnit', category: 'UNITS', factor: 1e-3 },
] as const satisfies readonly { key: string; category: UnitCategory; factor: number }[];
export type UnitType = (typeof UNIT_TYPES)[number];
export type UnitKey = UnitType['key'];

export function unitsOf(category: UnitCategory): UnitKey[] {
  return UNIT_TYPES.filter((unit) => unit.category === category).map((unit) => unit.key);
}

/** Push time frames (spec section 3); rapid has no set duration. */
export const PUSH_TIME_FRAMES = [
  { key: 'RAPID', label: 'Rapid', seconds: null },
  { key: 'SEC_15', label: '15 sec', seconds: 15 },
  { key: 'SEC_30', label: '30 sec', seconds: 30 },
  { key: 'SEC_45', label: '45 sec', seconds: 45 },
  { key: 'MIN_1', label: '1 min', seconds: 60 },
  { key: 'MIN_2', label: '2 min', seconds: 120 },
  { key: 'MIN_3', label: '3 min', seconds: 180 },
  { key: 'MIN_5', label: '5 min', seconds: 300 },
  { key: 'MIN_10', label: '10 min', seconds: 600 },
] as const satisfies readonly { key: string; label: string; seconds: number | null }[];
export type PushTimeFrameKey = (typeof PUSH_TIME_FRAMES)[number]['key'];

/**
 * Infusion bag volumes (spec section 3: "some glass"). The spec does not say which: 250 and
 * 500 mL also come as glass bottles here (the sizes premixed drugs that must not touch PVC, such
 * as nitroglycerin, are sold in); every volume comes as a bag.
 */
export const INFUSION_CONTAINERS = ['BAG', 'GLASS'] as const;
export type InfusionContainer = (typeof INFUSION_CONTAINERS)[number];

export const INFUSION_BAG_VOLUMES = [
  { volumeMl: 10, containers: ['BAG'] },
  { volumeMl: 50, containers: ['BAG'] },
  { volumeMl: 100, containers: ['BAG'] },
  { volumeMl: 125, containers: ['BAG'] },
  { volumeMl: 200, containers: ['BAG'] },
  { volumeMl: 250, containers: ['BAG', 'GLASS'] },
  { volumeMl: 300, containers: ['BAG'] },
  { volumeMl: 350, containers: ['BAG'] },
  { volumeMl: 500, containers: ['BAG', 'GLASS'] },
  { volumeMl: 1000, containers: ['BAG'] },
] as const satisfies readonly { volumeMl: number; containers: readonly InfusionContainer[] }[];

/** Infusion dosing types: a dose unit per rate basis (spec section 3), e.g. mcg/kg/min. */
export const INFUSION_DOSE_UNITS = ['g', 'mg', 'mcg', 'ng', 'mL', 'mEq', 'unit', 'mUnit'] as const;
export type InfusionDoseUnit = (typeof INFUSION_DOSE_UNITS)[number];
export const INFUSION_RATE_BASES = [
  { key: 'PER_KG_PER_HR', label: '/kg/hr', perKg: true, per: 'HOUR' },
  { key: 'PER_KG_PER_MIN', label: '/kg/min', perKg: true, per: 'MINUTE' },
  { key: 'PER_HR', label: '/hr', perKg: false, per: 'HOUR' },
  { key: 'PER_MIN', label: '/min', perKg: false, per: 'MINUTE' },
] as const;
export type InfusionRateBasis = (typeof INFUSION_RATE_BASES)[number]['key'];

export type InfusionDosingType = {
  key: `${InfusionDoseUnit}_${InfusionRateBasis}`;
  label: string;
  unit: InfusionDoseUnit;
  basis: InfusionRateBasis;
};

/** Every dose unit with every rate basis (units first, in the spec's order): 32 types. */
export const INFUSION_DOSING_TYPES: readonly InfusionDosingType[] = INFUSION_DOSE_UNITS.flatMap((unit) =>
  INFUSION_RATE_BASES.map((basis) => ({
    key: `${unit}_${basis.key}` as const,
    label: `${unit === 'unit' ? 'units' : unit === 'mUnit' ? 'munits' : unit}${basis.label}`,
    unit,
    basis: basis.key,
  })),
);
