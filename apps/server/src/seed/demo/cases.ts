/**
 * The cases of the demo: Riverside's library with its shares, favorites and play history, the
 * templates and public scenarios of each product type, and the small libraries of Northgate and Harbor.
 */
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { Database } from '../../db/client.js';
import { caseConfiguration, caseFavorite, casePlay, caseShare, media } from '../../db/schema/index.js';
import { newId } from '../../lib/ids.js';
import { mediaUrl } from '../../modules/media/media.service.js';
import {
  buildCase,
  buildCaseFavorite,
  buildCasePlay,
  buildCaseShare,
  buildMedia,
  type CaseAvatar,
  type CaseInput,
  type CasePicture,
  type CaseShareEntry,
  type NewCase,
  type NewCaseFavorite,
  type NewCasePlay,
  type NewCaseShare,
  type NewMedia,
} from '../builders.js';
import { avatarPicturePath, scenePicturePath } from '../media-assets.js';
import { DAY_MS, type DemoContext, daysAgo, idOf } from './context.js';
import { APP_LAB_ORG, type DemoOrgKey, PUBLIC_CONTENT_ORG, TEMPLATE_ORG } from './organisations.js';
import { AVATARS, type AvatarKey, LOCATIONS, type LocationKey, SCENE_KINDS, type SceneKind } from './patients-and-places.js';
import { EMS_LIBRARY, MILITARY_LIBRARY, NURSING_LIBRARY, type ScenarioSpec, TEMPLATE_LIBRARY } from './scenarios.js';

/** States of particular Riverside cases, by name; every other case is clean. */
const RIVERSIDE_CASE_STATES: Readonly<Record<string, Partial<CaseInput>>> = {
  'Anaphylaxis at a Picnic': {
    needsEcUpdate: true,
    outdatedMedications: ['Epinephrine 1 mg/mL'],
    outdatedEcNodes: ['Epinephrine IM response'],
  },
  'Stroke Alert at the Nursing Home': { needsEcUpdate: true, outdatedEcNodes: ['Blood glucose check', 'Stroke scale'] },
  'COPD Exacerbation': { needsEcUpdate: true, outdatedMedications: ['Ipratropium 0.5 mg nebule'], warningsCount: 1 },
  'Symptomatic Bradycardia': {
    needsEcUpdate: true,
    outdatedMedications: ['Atropine 0.5 mg'],
    outdatedEcNodes: ['Pacing capture'],
  },
  'Status Epilepticus': {
    needsEcUpdate: true,
    ignoreEcUpdate: true,
    updateStatus: 'DECLINED',
    outdatedMedications: ['Midazolam 10 mg IM'],
  },
  'Hyperkalemia in a Dialysis Patient': { updateStatus: 'UPDATED' },
  'Burns from a Kitchen Fire': { errorsCount: 2, warningsCount: 1 },
  Eclampsia: { errorsCount: 1 },
  'Crush Injury in a Warehouse': { updateStatus: 'ERRORED', errorsCount: 3 },
  'Tricyclic Antidepressant Overdose': { warningsCount: 2 },
  'Bus Crash with Multiple Patients': { warningsCount: 1 },
};
const SHARED_WITH_NORTHGATE = ['Imminent Delivery in the Living Room', 'Postpartum Hemorrhage at Home'];
const FAVORITES: Readonly<Record<string, readonly string[]>> = {
  'instructor@demo.test': ['Chest Pain at the Gym', 'Pediatric Asthma Exacerbation', 'Cardiac Arrest in the Ambulance'],
  'student@demo.test': ['Hypoglycemia at the Bus Stop', 'Choking Toddler'],
  'owner@demo.test': ['Bus Crash with Multiple Patients'],
};
/** How many Riverside cases each account has opened (and mostly played). */
const RIVERSIDE_PLAY_COUNTS: Readonly<Record<string, number>> = {
  'instructor@demo.test': 20,
  'student@demo.test': 12,
  'student2@demo.test': 6,
  'owner@demo.test': 8,
  'admin@demo.test': 5,
  'multi@demo.test': 3,
  'jordan.price@demo.test': 4,
  'emily.zhang@demo.test': 4,
};
/** Authors of Riverside cases in turn: instructors write most of them. */
const RIVERSIDE_AUTHORS = [
  'instructor@demo.test',
  'instructor@demo.test',
  'multi@demo.test',
  'admin@demo.test',
  'owner@demo.test',
];

type CaseContext = DemoContext & { random: () => number };

/**
 * Inserts the pictures of the patients and places, the cases, and Riverside's shares, favorites
 * and plays. Answers Riverside's cases, which notifications link to.
 */
export async function seedCases(db: Database, demo: DemoContext): Promise<readonly NewCase[]> {
  // A fixed seed: the same spread of dates and plays on every start.
  const context: CaseContext = { ...demo, random: createRandom(20260101) };
  const pictures = buildPictures();
  const { riverside, caseShares } = buildRiversideCases(context, pictures);
  const cases = [
    ...riverside,
    ...buildTemplates(context, pictures),
    ...buildOwnLibraries(context, pictures),
    ...buildPublicContent(context, pictures),
  ];
  await db.insert(media).values(pictures.media);
  await db.insert(caseConfiguration).values(cases);
  await db.insert(caseShare).values(caseShares);
  await db.insert(caseFavorite).values(buildFavorites(context, riverside));
  await db.insert(casePlay).values(buildPlays(context, riverside));
  return riverside;
}

/** The case of that name in `cases`; a typo in the seed's own tables fails loudly. */
export function caseNamed(cases: readonly NewCase[], name: string): NewCase {
  const found = cases.find((row) => row.name === name);
  if (!found) throw new Error(`No demo case named ${name}`);
  return found;
}

type Pictures = {
  media: NewMedia[];
  avatars: ReadonlyMap<AvatarKey, CaseAvatar>;
  locations: ReadonlyMap<LocationKey, CasePicture>;
};

/** One media row per picture file; avatars and places point at them. */
function buildPictures(): Pictures {
  const avatarMedia = AVATARS.map((avatar) => buildMedia({ path: avatarPicturePath(avatar.key), contentType: 'image/png' }));
  const sceneMedia = new Map<SceneKind, NewMedia>(
    SCENE_KINDS.map((kind) => [kind, buildMedia({ path: scenePicturePath(kind), contentType: 'image/png' })]),
  );
  const avatars = new Map<AvatarKey, CaseAvatar>(
    AVATARS.map((avatar, index) => {
      const picture = avatarMedia[index];
      if (!picture) throw new Error(`No picture for avatar ${avatar.key}`);
      return [avatar.key, { id: newId(), key: avatar.key, name: avatar.name, pictureUrl: mediaUrl(picture.id) }];
    }),
  );
  const locations = new Map<LocationKey, CasePicture>(
    LOCATIONS.map((location) => {
      const picture = sceneMedia.get(location.scene);
      if (!picture) throw new Error(`No picture for scene ${location.scene}`);
      return [location.key, { name: location.name, pictureUrl: mediaUrl(picture.id) }];
    }),
  );
  return { media: [...avatarMedia, ...sceneMedia.values()], avatars, locations };
}

function fromScenario(spec: ScenarioSpec, pictures: Pictures): CaseInput {
  return {
    name: spec.name,
    tags: spec.tags,
    avatar: pictureOf(pictures.avatars, spec.avatar),
    startLocation: pictureOf(pictures.locations, spec.start),
    endLocation: pictureOf(pictures.locations, spec.end),
    chiefComplaint: spec.chiefComplaint,
    learningObjectives: spec.learningObjectives,
  };
}

/** A date in the last `days` days, older for earlier positions of a list of `count`. */
function spreadDate({ now, random }: CaseContext, index: number, count: number, days: number): Date {
  return daysAgo(now, days * (1 - (index + random()) / count));
}

/** Riverside's library over the last two years: copies of the EMS templates and originals. */
function buildRiversideCases(context: CaseContext, pictures: Pictures) {
  const { now, random, userIds, orgIds } = context;
  const templateNames = new Set(TEMPLATE_LIBRARY.EMS.map((spec) => spec.name));
  const caseShares: NewCaseShare[] = [];
  const riverside = EMS_LIBRARY.map((spec, index) => {
    const authorId = idOf(userIds, RIVERSIDE_AUTHORS[index % RIVERSIDE_AUTHORS.length] ?? 'instructor@demo.test');
    const shares: CaseShareEntry[] = SHARED_WITH_NORTHGATE.includes(spec.name)
      ? [{ shareType: 'group', from: authorId, to: orgIds.northgate }]
      : [];
    const createdAt = spreadDate(context, index, EMS_LIBRARY.length, 730);
    const updatedAt = new Date(createdAt.getTime() + random() * (now.getTime() - createdAt.getTime()));
    const row = buildCase({
      ...fromScenario(spec, pictures),
      ownerId: authorId,
      ownerOrgId: orgIds.riverside,
      origin: templateNames.has(spec.name) ? 'Template' : 'Original',
      shares,
      createdAt,
      updatedAt,
      ...RIVERSIDE_CASE_STATES[spec.name],
    });
    caseShares.push(...shares.map((share) => buildCaseShare({ caseId: row.id, ...share }, { createdAt: updatedAt })));
    return row;
  });
  return { riverside, caseShares };
}

/** The templates of each product type, held by its template organisation. */
function buildTemplates(context: CaseContext, pictures: Pictures): NewCase[] {
  const { userIds, orgIds } = context;
  return (Object.keys(TEMPLATE_LIBRARY) as ProductType[]).flatMap((productType) =>
    TEMPLATE_LIBRARY[productType].map((spec, index) =>
      buildCase({
        ...fromScenario(spec, pictures),
        ownerId: idOf(userIds, 'super@demo.test'),
        ownerOrgId: orgIds[TEMPLATE_ORG[productType]],
        origin: 'PatientSim',
        isTemplate: true,
        // The first is published and in App Lab, the second only published, the third only in App Lab.
        published: index < 2,
        appLabOrgId: index === 0 || index === 2 ? orgIds[APP_LAB_ORG[productType]] : null,
        createdAt: spreadDate(context, index, TEMPLATE_LIBRARY[productType].length, 780),
      }),
    ),
  );
}

/**
 * The scenarios of each product type's public content organisation, which people without an
 * organisation read: copies of the product type's templates, all published but the last.
 */
function buildPublicContent(context: CaseContext, pictures: Pictures): NewCase[] {
  const { userIds, orgIds } = context;
  return (Object.keys(TEMPLATE_LIBRARY) as ProductType[]).flatMap((productType) => {
    const specs = TEMPLATE_LIBRARY[productType];
    return specs.map((spec, index) =>
      buildCase({
        ...fromScenario(spec, pictures),
        ownerId: idOf(userIds, 'super@demo.test'),
        ownerOrgId: orgIds[PUBLIC_CONTENT_ORG[productType]],
        origin: 'PatientSim',
        published: index < specs.length - 1,
        createdAt: spreadDate(context, index, specs.length, 600),
      }),
    );
  });
}

/** The small libraries of Northgate and Harbor, written by their key owners. */
function buildOwnLibraries(context: CaseContext, pictures: Pictures): NewCase[] {
  const ownLibrary = (specs: readonly ScenarioSpec[], org: DemoOrgKey, author: string) =>
    specs.map((spec, index) =>
      buildCase({
        ...fromScenario(spec, pictures),
        ownerId: idOf(context.userIds, author),
        ownerOrgId: context.orgIds[org],
        origin: 'Original',
        createdAt: spreadDate(context, index, specs.length, 200),
      }),
    );
  return [
    ...ownLibrary(NURSING_LIBRARY, 'northgate', 'nurse@demo.test'),
    ...ownLibrary(MILITARY_LIBRARY, 'harbor', 'medic@demo.test'),
  ];
}

function buildFavorites({ now, userIds }: CaseContext, cases: readonly NewCase[]): NewCaseFavorite[] {
  return Object.entries(FAVORITES).flatMap(([email, names]) =>
    names.map((name, index) =>
      buildCaseFavorite(
        { caseId: caseNamed(cases, name).id, userId: idOf(userIds, email) },
        { createdAt: daysAgo(now, 20 + index * 3) },
      ),
    ),
  );
}

/** Recent history: mostly played cases, some only opened. */
function buildPlays({ now, random, userIds }: CaseContext, cases: readonly NewCase[]): NewCasePlay[] {
  return Object.entries(RIVERSIDE_PLAY_COUNTS).flatMap(([email, count]) => {
    const userId = idOf(userIds, email);
    const picked = shuffle(cases, random).slice(0, count);
    return picked.map((row, index) => {
      const lastAccessed = daysAgo(now, random() * 60);
      const isOpenedOnly = index % 4 === 3;
      return buildCasePlay(
        { caseId: row.id, userId },
        {
          plays: isOpenedOnly ? 0 : 1 + Math.floor(random() * 6),
          lastPlayed: isOpenedOnly ? null : new Date(lastAccessed.getTime() - random() * 2 * DAY_MS),
          lastAccessed,
        },
      );
    });
  });
}

function pictureOf<K, V>(pictures: ReadonlyMap<K, V>, key: K): V {
  const picture = pictures.get(key);
  if (!picture) throw new Error(`No picture for ${String(key)}`);
  return picture;
}

/** mulberry32: a small deterministic generator, so the demo looks the same on every start. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  return items
    .map((item) => ({ item, order: random() }))
    .sort((a, b) => a.order - b.order)
    .map(({ item }) => item);
}
