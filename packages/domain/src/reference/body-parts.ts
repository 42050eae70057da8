/**
 * The body parts of spec section 3, in its order. English labels: the spec gives only GENITALIA's
 * ('Pelvis/Genitalia'); the others are plain English names of the keys. Spanish labels: the spec
 * gives only BUTTOCKS's ('Las Nalgas'); the others are absent (not invented) and readers fall
 * back to English (docs/decisions/0026-reference-data.md).
 */
export const BODY_PART_KEYS = [
  'FULL_BODY',
  'HEAD',
  'FACE',
  'NOSE',
  'EARS',
  'MOUTH',
  'EYES',
  'NECK',
  'CHEST',
  'RIGHT_ARM_UPPER',
  'RIGHT_ARM_LOWER',
  'RIGHT_HAND',
  'LEFT_ARM_UPPER',
  'LEFT_ARM_LOWER',
  'LEFT_HAND',
  'ABDOMEN',
  'BACK_UPPER',
  'BACK_LOWER',
  'GENITALIA',
  'RIGHT_LEG_UPPER',
  'RIGHT_LEG_LOWER',
  'RIGHT_FOOT',
  'LEFT_LEG_UPPER',
  'LEFT_LEG_LOWER',
  'LEFT_FOOT',
  'BUTTOCKS',
] as const;
export type BodyPartKey = (typeof BODY_PART_KEYS)[number];

/** A label per language; `es` is present only where the spec gives it. */
export type BodyPartLabel = { en: string; es?: string };
export type BodyPart = { key: BodyPartKey; label: BodyPartLabel };

const LABELS: Record<BodyPartKey, BodyPartLabel> = {
  FULL_BODY: { en: 'Full Body' },
  HEAD: { en: 'Head' },
  FACE: { en: 'Face' },
  NOSE: { en: 'Nose' },
  EARS: { en: 'Ears' },
  MOUTH: { en: 'Mouth' },
  EYES: { en: 'Eyes' },
  NECK: { en: 'Neck' },
  CHEST: { en: 'Chest' },
  RIGHT_ARM_UPPER: { en: 'Right Upper Arm' },
  RIGHT_ARM_LOWER: { en: 'Right Lower Arm' },
  RIGHT_HAND: { en: 'Right Hand' },
  LEFT_ARM_UPPER: { en: 'Left Upper Arm' },
  LEFT_ARM_LOWER: { en: 'Left Lower Arm' },
  LEFT_HAND: { en: 'Left Hand' },
  ABDOMEN: { en: 'Abdomen' },
  BACK_UPPER: { en: 'Upper Back' },
  BACK_LOWER: { en: 'Lower Back' },
  GENITALIA: { en: 'Pelvis/Genitalia' },
  RIGHT_LEG_UPPER: { en: 'Right Upper Leg' },
  RIGHT_LEG_LOWER: { en: 'Right Lower Leg' },
  RIGHT_FOOT: { en: 'Right Foot' },
  LEFT_LEG_UPPER: { en: 'Left Upper Leg' },
  LEFT_LEG_LOWER: { en: 'Left Lower Leg' },
  LEFT_FOOT: { en: 'Left Foot' },
  BUTTOCKS: { en: 'Buttocks', es: 'Las Nalgas' },
};

export const BODY_PARTS: readonly BodyPart[] = BODY_PART_KEYS.map((key) => ({ key, label: LABELS[key] }));

export const BODY_PART_LANGUAGES = ['en', 'es'] as const;
export type BodyPartLanguage = (typeof BODY_PART_LANGUAGES)[number];

/** The body part's label in a language, falling back to English where that language has none. */
export function bodyPartLabel(key: BodyPartKey, language: BodyPartLanguage = 'en'): string {
  const label = LABELS[key];
  return (language === 'es' ? label.es : undefined) ?? label.en;
}
