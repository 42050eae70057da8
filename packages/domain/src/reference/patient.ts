/** Patient positions and body types (spec section 3). */
export const POSITIONS = [
  { key: 'SEATED_FORWARD', label: 'Seated Forward' },
  { key: 'SUPINE', label: 'Supine' },
  { key: 'FOWLER', label: 'Fowler' },
  { key: 'PRONE', label: 'Prone' },
  { key: 'SIDE', label: 'Side' },
] as const;
export type PositionKey = (typeof POSITIONS)[number]['key'];

export const BODY_TYPES = [
  { key: 'INFANT', label: 'Infant' },
  { key: 'CHILD', label: 'Child' },
  { key: 'ADULT', label: 'Adult' },
  { key: 'OBESE', label: 'Obese' },
] as const;
export type BodyTypeKey = (typeof BODY_TYPES)[number]['key'];
