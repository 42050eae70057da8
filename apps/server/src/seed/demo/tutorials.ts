/** The video tutorials of the demo: every one plays the same short video from the seed assets. */
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { TutorialCategory } from '@patientsim/domain/tutorials/tutorial.schemas';
import type { Database } from '../../db/client.js';
import { media, tutorial } from '../../db/schema/index.js';
import { buildMedia, buildTutorial } from '../builders.js';
import { TUTORIAL_VIDEO } from '../media-assets.js';

/** `productType: null` means the tutorial is shown for every product type. */
type TutorialSpec = {
  title: string;
  category: TutorialCategory;
  productType: ProductType | null;
  ordinal: number;
};

const TUTORIALS: readonly TutorialSpec[] = [
  { title: 'Building your first scenario', category: 'SCENARIO_BUILDER', productType: 'EMS', ordinal: 1 },
  { title: 'Adding vital sign trends', category: 'SCENARIO_BUILDER', productType: 'EMS', ordinal: 2 },
  { title: 'Finding and filtering scenarios', category: 'SCENARIO_SELECT', productType: 'EMS', ordinal: 1 },
  { title: 'Favorites and shared scenarios', category: 'SCENARIO_SELECT', productType: 'EMS', ordinal: 2 },
  { title: 'Effect chains explained', category: 'SCENARIO_LOGIC', productType: 'EMS', ordinal: 1 },
  { title: 'Medication responses and timers', category: 'SCENARIO_LOGIC', productType: 'EMS', ordinal: 2 },
  { title: 'Inviting your students', category: 'ORG_MANAGEMENT', productType: 'EMS', ordinal: 1 },
  { title: 'Managing groups and seats', category: 'ORG_MANAGEMENT', productType: 'EMS', ordinal: 2 },
  { title: 'Building a ward scenario', category: 'SCENARIO_BUILDER', productType: 'NURSING', ordinal: 1 },
  { title: 'Choosing scenarios for a clinical day', category: 'SCENARIO_SELECT', productType: 'NURSING', ordinal: 1 },
  { title: 'Charting and transfer of care', category: 'SCENARIO_LOGIC', productType: 'NURSING', ordinal: 1 },
  { title: 'Setting up a nursing cohort', category: 'ORG_MANAGEMENT', productType: 'NURSING', ordinal: 1 },
  { title: 'Building a tactical casualty scenario', category: 'SCENARIO_BUILDER', productType: 'MILITARY', ordinal: 1 },
  { title: 'Reviewing the grading archive', category: 'ORG_MANAGEMENT', productType: null, ordinal: 3 },
];

/** Inserts every tutorial with a media row of its own, named after the tutorial. */
export async function seedTutorials(db: Database): Promise<void> {
  const rows = TUTORIALS.map((spec) => {
    const video = buildMedia({ ...TUTORIAL_VIDEO, fileName: `${slugify(spec.title)}.webm` });
    return { video, tutorial: buildTutorial({ ...spec, mediaId: video.id }) };
  });
  await db.insert(media).values(rows.map((row) => row.video));
  await db.insert(tutorial).values(rows.map((row) => row.tutorial));
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
