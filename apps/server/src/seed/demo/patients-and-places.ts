/**
 * Patients (avatars) and places of the demo scenarios. The picture of every avatar and scene
 * kind is a file in `assets/` (see `media-assets.ts`).
 */
export type AvatarSpec = { key: string; name: string };

/** The kinds of scene pictures; every location shows the picture of its kind. */
export const SCENE_KINDS = ['home', 'street', 'public', 'vehicle', 'hospital', 'field'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export type LocationSpec = { key: string; name: string; scene: SceneKind };

export const AVATARS = [
  // EMS
  { key: 'robert-miller', name: 'Robert Miller' },
  { key: 'maria-gonzalez', name: 'Maria Gonzalez' },
  { key: 'ethan-brooks', name: 'Ethan Brooks' },
  { key: 'dorothy-hayes', name: 'Dorothy Hayes' },
  { key: 'james-okafor', name: 'James Okafor' },
  { key: 'lily-chen', name: 'Lily Chen' },
  { key: 'marcus-reed', name: 'Marcus Reed' },
  { key: 'sofia-rossi', name: 'Sofia Rossi' },
  { key: 'harold-jensen', name: 'Harold Jensen' },
  { key: 'aisha-khan', name: 'Aisha Khan' },
  // NURSING
  { key: 'evelyn-park', name: 'Evelyn Park' },
  { key: 'thomas-wright', name: 'Thomas Wright' },
  { key: 'grace-adeyemi', name: 'Grace Adeyemi' },
  { key: 'noah-fischer', name: 'Noah Fischer' },
  // MILITARY
  { key: 'daniel-cruz', name: 'SGT Daniel Cruz' },
  { key: 'kayla-morgan', name: 'SPC Kayla Morgan' },
  { key: 'ryan-walsh', name: 'CPL Ryan Walsh' },
] as const satisfies readonly AvatarSpec[];
export type AvatarKey = (typeof AVATARS)[number]['key'];

export const LOCATIONS = [
  // EMS scenes
  { key: 'fitness-center', name: 'Fitness Center', scene: 'public' },
  { key: 'playground', name: 'Playground', scene: 'public' },
  { key: 'bus-stop', name: 'City Bus Stop', scene: 'street' },
  { key: 'parking-garage', name: 'Parking Garage', scene: 'street' },
  { key: 'residence', name: 'Residence', scene: 'home' },
  { key: 'nursing-home', name: 'Nursing Home', scene: 'home' },
  { key: 'highway', name: 'Highway Shoulder', scene: 'street' },
  { key: 'construction-site', name: 'Construction Site', scene: 'public' },
  { key: 'sports-field', name: 'Sports Field', scene: 'public' },
  { key: 'grocery-store', name: 'Grocery Store', scene: 'public' },
  { key: 'city-street', name: 'City Street', scene: 'street' },
  { key: 'swimming-pool', name: 'Swimming Pool', scene: 'public' },
  { key: 'school', name: 'Elementary School', scene: 'public' },
  { key: 'hiking-trail', name: 'Hiking Trail', scene: 'field' },
  { key: 'park', name: 'City Park', scene: 'public' },
  { key: 'ambulance', name: 'Ambulance', scene: 'vehicle' },
  // EMS destinations
  { key: 'emergency-department', name: 'Emergency Department', scene: 'hospital' },
  { key: 'trauma-center', name: 'Trauma Center', scene: 'hospital' },
  { key: 'labor-delivery', name: 'Labor and Delivery', scene: 'hospital' },
  // NURSING
  { key: 'med-surg-ward', name: 'Medical-Surgical Ward', scene: 'hospital' },
  { key: 'icu', name: 'Intensive Care Unit', scene: 'hospital' },
  { key: 'postpartum-unit', name: 'Postpartum Unit', scene: 'hospital' },
  { key: 'pediatric-ward', name: 'Pediatric Ward', scene: 'hospital' },
  { key: 'step-down-unit', name: 'Cardiac Step-Down Unit', scene: 'hospital' },
  // MILITARY
  { key: 'vehicle-checkpoint', name: 'Vehicle Checkpoint', scene: 'field' },
  { key: 'convoy-route', name: 'Convoy Route', scene: 'field' },
  { key: 'training-range', name: 'Training Range', scene: 'field' },
  { key: 'aid-station', name: 'Role 1 Aid Station', scene: 'field' },
  { key: 'forward-surgical', name: 'Forward Surgical Team', scene: 'hospital' },
  { key: 'medevac', name: 'MEDEVAC Helicopter', scene: 'vehicle' },
] as const satisfies readonly LocationSpec[];
export type LocationKey = (typeof LOCATIONS)[number]['key'];
