/**
 * The demo data of the product (the demo-data contract): known accounts, organisations,
 * invitations, a scenario library, templates, tutorials and notifications. The server seeds it
 * into an empty database at start unless `SEED=none`.
 */
import { INVITATION_TOKEN_SECONDS, LICENSE_VERSION } from '@patientsim/domain/common/constants';
import type { ProductType } from '@patientsim/domain/product/product-types';
import type { Role } from '@patientsim/domain/roles/roles';
import type { Database } from '../db/client.js';
import {
  account,
  caseConfiguration,
  caseFavorite,
  casePlay,
  caseShare,
  group,
  groupMember,
  invitation,
  licenseAcceptance,
  media,
  notification,
  notificationTarget,
  tutorial,
  user,
} from '../db/schema/index.js';
import { hashPassword } from '../identity/password.js';
import { newId } from '../lib/ids.js';
import {
  buildCase,
  buildCaseFavorite,
  buildCasePlay,
  buildCaseShare,
  buildCredentialAccount,
  buildInvitation,
  buildLicenseAcceptance,
  buildMedia,
  buildMembership,
  buildNotification,
  buildNotificationTarget,
  buildOrganisation,
  buildSubgroup,
  buildTutorial,
  buildUser,
  type CaseAvatar,
  type CaseShareEntry,
  type CaseInput,
  type CasePicture,
  type NewCase,
  type NewCaseFavorite,
  type NewCasePlay,
  type NewCaseShare,
  type NewGroupMember,
  type NewMedia,
  type NewNotification,
  type NewNotificationTarget,
  type NewUser,
} from './builders.js';
import {
  AVATARS,
  type AvatarKey,
  EMS_LIBRARY,
  LOCATIONS,
  type LocationKey,
  MILITARY_LIBRARY,
  NURSING_LIBRARY,
  SCENE_KINDS,
  type ScenarioSpec,
  type SceneKind,
  TEMPLATE_LIBRARY,
  TUTORIALS,
} from './demo-catalogue.js';
import {
  ANNOUNCEMENT_IMAGE,
  SEED_ASSETS_DIR,
  TUTORIAL_VIDEO,
  avatarPicturePath,
  mediaUrl,
  scenePicturePath,
} from './media-assets.js';

export { SEED_ASSETS_DIR };

/** The password of every demo account. */
export const DEMO_PASSWORD = 'Sim-Demo-2026';

/** The organisation of each product type that App Lab users read and run cases through. */
export const APP_LAB_ORG_NAMES: Record<ProductType, string> = {
  EMS: 'EMS App Lab',
  NURSING: 'Nursing App Lab',
  MILITARY: 'Military App Lab',
};

type OrgSpec = {
  name: string;
  productType: ProductType;
  seats: number;
  dev?: boolean;
  inactive?: boolean;
  templatesFor?: ProductType;
  /** E-mail of the key owner. */
  keyOwner?: string;
};

/** Every top-level organisation of the demo, by key. */
export const DEMO_ORGANISATIONS = {
  provider: { name: 'PatientSim Provider', productType: 'EMS', seats: 100, dev: true, keyOwner: 'super@demo.test' },
  riverside: { name: 'Riverside EMS Academy', productType: 'EMS', seats: 25, keyOwner: 'owner@demo.test' },
  northgate: { name: 'Northgate Nursing School', productType: 'NURSING', seats: 10, keyOwner: 'nurse@demo.test' },
  harbor: { name: 'Harbor Medic Unit', productType: 'MILITARY', seats: 3, keyOwner: 'medic@demo.test' },
  emsTemplates: { name: 'EMS Templates', productType: 'EMS', seats: 0, templatesFor: 'EMS' },
  nursingTemplates: { name: 'Nursing Templates', productType: 'NURSING', seats: 0, templatesFor: 'NURSING' },
  militaryTemplates: { name: 'Military Templates', productType: 'MILITARY', seats: 0, templatesFor: 'MILITARY' },
  dormant: { name: 'Dormant Ambulance Service', productType: 'EMS', seats: 5, inactive: true },
  emsAppLab: { name: APP_LAB_ORG_NAMES.EMS, productType: 'EMS', seats: 0 },
  nursingAppLab: { name: APP_LAB_ORG_NAMES.NURSING, productType: 'NURSING', seats: 0 },
  militaryAppLab: { name: APP_LAB_ORG_NAMES.MILITARY, productType: 'MILITARY', seats: 0 },
} as const satisfies Record<string, OrgSpec>;
export type DemoOrgKey = keyof typeof DEMO_ORGANISATIONS;

const TEMPLATE_ORG: Record<ProductType, DemoOrgKey> = {
  EMS: 'emsTemplates',
  NURSING: 'nursingTemplates',
  MILITARY: 'militaryTemplates',
};
const APP_LAB_ORG: Record<ProductType, DemoOrgKey> = {
  EMS: 'emsAppLab',
  NURSING: 'nursingAppLab',
  MILITARY: 'militaryAppLab',
};

type SubgroupSpec = { parent: DemoOrgKey; name: string; testing?: boolean; owner: string };

/** Sub-groups (classes), by key; names are plain here and stored with the parent's prefix. */
export const DEMO_SUBGROUPS = {
  cohortA: { parent: 'riverside', name: 'Paramedic Cohort A', owner: 'instructor@demo.test' },
  cohortB: { parent: 'riverside', name: 'Paramedic Cohort B', owner: 'admin@demo.test' },
  qaSandbox: { parent: 'riverside', name: 'QA Sandbox', testing: true, owner: 'admin@demo.test' },
  cohort2027: { parent: 'northgate', name: 'Cohort 2027', owner: 'nurse@demo.test' },
} as const satisfies Record<string, SubgroupSpec>;
export type DemoSubgroupKey = keyof typeof DEMO_SUBGROUPS;

export type DemoAccount = {
  email: string;
  /** Global role. */
  role: Role;
  givenName: string;
  familyName: string;
  productType: ProductType;
  /** Organisations and the role there; the first one is the active organisation. */
  memberships: readonly { org: DemoOrgKey; role: Role }[];
  /** Sub-groups, with the role the account has in the parent organisation. */
  subgroups?: readonly DemoSubgroupKey[];
  /** Organisations the account was removed from (archived for grading). */
  removedFrom?: readonly DemoOrgKey[];
  emailVerified?: boolean;
  hasAcceptedLicense?: boolean;
  stripeCustomerId?: string;
  subscriptionStatus?: 'active' | 'past_due';
};

/** Every demo account; all share `DEMO_PASSWORD`. The first thirteen are the documented ones. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'super@demo.test',
    role: 'SUPER_ADMIN',
    givenName: 'Morgan',
    familyName: 'Hale',
    productType: 'EMS',
    memberships: [{ org: 'provider', role: 'SUPER_ADMIN' }],
  },
  {
    email: 'owner@demo.test',
    role: 'ADMIN',
    givenName: 'Olivia',
    familyName: 'Bennett',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'ADMIN' }],
    stripeCustomerId: 'cus_demo_owner',
    subscriptionStatus: 'active',
  },
  {
    email: 'admin@demo.test',
    role: 'ADMIN',
    givenName: 'Adrian',
    familyName: 'Cole',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'ADMIN' }],
    subgroups: ['qaSandbox'],
  },
  {
    email: 'instructor@demo.test',
    role: 'USER',
    givenName: 'Isabel',
    familyName: 'Turner',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'USER' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'student@demo.test',
    role: 'STUDENT',
    givenName: 'Sean',
    familyName: 'Walker',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'student2@demo.test',
    role: 'STUDENT',
    givenName: 'Stella',
    familyName: 'Nguyen',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
  },
  {
    email: 'nurse@demo.test',
    role: 'ADMIN',
    givenName: 'Nora',
    familyName: 'Lindqvist',
    productType: 'NURSING',
    memberships: [{ org: 'northgate', role: 'ADMIN' }],
  },
  {
    email: 'multi@demo.test',
    role: 'USER',
    givenName: 'Miles',
    familyName: 'Carter',
    productType: 'EMS',
    memberships: [
      { org: 'riverside', role: 'USER' },
      { org: 'northgate', role: 'USER' },
    ],
  },
  {
    email: 'medic@demo.test',
    role: 'ADMIN',
    givenName: 'Mateo',
    familyName: 'Delgado',
    productType: 'MILITARY',
    memberships: [{ org: 'harbor', role: 'ADMIN' }],
    stripeCustomerId: 'cus_demo_medic',
    subscriptionStatus: 'past_due',
  },
  {
    email: 'unverified@demo.test',
    role: 'STUDENT',
    givenName: 'Uma',
    familyName: 'Patel',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    emailVerified: false,
  },
  {
    email: 'nolicense@demo.test',
    role: 'STUDENT',
    givenName: 'Noel',
    familyName: 'Fraser',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    hasAcceptedLicense: false,
  },
  { email: 'noorg@demo.test', role: 'STUDENT', givenName: 'Nadia', familyName: 'Ortiz', productType: 'EMS', memberships: [] },
  {
    email: 'removed@demo.test',
    role: 'STUDENT',
    givenName: 'Rhea',
    familyName: 'Sullivan',
    productType: 'EMS',
    memberships: [],
    removedFrom: ['riverside'],
  },
  // Classmates and colleagues, so that cohorts and units are not empty.
  {
    email: 'jordan.price@demo.test',
    role: 'STUDENT',
    givenName: 'Jordan',
    familyName: 'Price',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'emily.zhang@demo.test',
    role: 'STUDENT',
    givenName: 'Emily',
    familyName: 'Zhang',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortA'],
  },
  {
    email: 'carlos.mendes@demo.test',
    role: 'STUDENT',
    givenName: 'Carlos',
    familyName: 'Mendes',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortB'],
  },
  {
    email: 'hannah.kim@demo.test',
    role: 'STUDENT',
    givenName: 'Hannah',
    familyName: 'Kim',
    productType: 'EMS',
    memberships: [{ org: 'riverside', role: 'STUDENT' }],
    subgroups: ['cohortB'],
  },
  {
    email: 'priya.shah@demo.test',
    role: 'STUDENT',
    givenName: 'Priya',
    familyName: 'Shah',
    productType: 'NURSING',
    memberships: [{ org: 'northgate', role: 'STUDENT' }],
    subgroups: ['cohort2027'],
  },
  {
    email: 'liam.oconnor@demo.test',
    role: 'STUDENT',
    givenName: 'Liam',
    familyName: "O'Connor",
    productType: 'NURSING',
    memberships: [{ org: 'northgate', role: 'STUDENT' }],
    subgroups: ['cohort2027'],
  },
  {
    email: 'corpsman@demo.test',
    role: 'USER',
    givenName: 'Tyler',
    familyName: 'Grant',
    productType: 'MILITARY',
    memberships: [{ org: 'harbor', role: 'USER' }],
  },
  {
    email: 'fieldmedic@demo.test',
    role: 'STUDENT',
    givenName: 'Jess',
    familyName: 'Alvarez',
    productType: 'MILITARY',
    memberships: [{ org: 'harbor', role: 'STUDENT' }],
  },
  // Former learners in Riverside's grading archive: enough rows for a second page of the Users
  // table (page size 50). Archived, so they take no seats (Riverside has 25).
  ...Array.from({ length: 60 }, (_, index): DemoAccount => {
    const nn = String(index + 1).padStart(2, '0');
    return {
      email: `cohort.learner${nn}@demo.test`,
      role: 'STUDENT',
      givenName: 'Cohort',
      familyName: `Learner ${nn}`,
      productType: 'EMS',
      memberships: [],
      removedFrom: ['riverside'],
    };
  }),
];

/** Pending invitations; the invitee has no account yet. */
const DEMO_INVITATIONS: readonly {
  email: string;
  org: DemoOrgKey;
  role: Role;
  inviter: string;
  subgroups?: readonly DemoSubgroupKey[];
}[] = [
  { email: 'invitee@demo.test', org: 'northgate', role: 'STUDENT', inviter: 'nurse@demo.test', subgroups: ['cohort2027'] },
  { email: 'instructor@demo.test', org: 'northgate', role: 'USER', inviter: 'nurse@demo.test' },
];

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

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the database holds no user yet (the server seeds only then). */
export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: user.id }).from(user).limit(1);
  return row === undefined;
}

/** Inserts the whole demo data set in one transaction. `now` anchors every relative date. */
export async function seedDemo(db: Database, { now = new Date() }: { now?: Date } = {}): Promise<void> {
  // Hashing is deliberately slow: one hash serves every demo account.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const rows = buildDemoRows({ now, passwordHash });
  await db.transaction(async (tx) => {
    await tx.insert(user).values(rows.users);
    await tx.insert(account).values(rows.accounts);
    await tx.insert(licenseAcceptance).values(rows.licenseAcceptances);
    await tx.insert(group).values(rows.organisations);
    await tx.insert(group).values(rows.subgroups);
    await tx.insert(groupMember).values(rows.memberships);
    await tx.insert(invitation).values(rows.invitations);
    await tx.insert(media).values(rows.media);
    await tx.insert(tutorial).values(rows.tutorials);
    await tx.insert(caseConfiguration).values(rows.cases);
    await tx.insert(caseShare).values(rows.caseShares);
    await tx.insert(caseFavorite).values(rows.caseFavorites);
    await tx.insert(casePlay).values(rows.casePlays);
    await tx.insert(notification).values(rows.notifications);
    await tx.insert(notificationTarget).values(rows.notificationTargets);
  });
}

type DemoContext = {
  now: Date;
  random: () => number;
  userIds: ReadonlyMap<string, string>;
  orgIds: Readonly<Record<DemoOrgKey, string>>;
};

function buildDemoRows({ now, passwordHash }: { now: Date; passwordHash: string }) {
  const userIds = new Map<string, string>(DEMO_ACCOUNTS.map((demo) => [demo.email, newId()]));
  const orgIds = mapValues(DEMO_ORGANISATIONS, () => newId());
  // A fixed seed: the same spread of dates and plays on every start.
  const context: DemoContext = { now, random: createRandom(20260101), userIds, orgIds };

  const users = DEMO_ACCOUNTS.map((demo, index) => buildDemoUser(demo, index, context));
  const { organisations, subgroups, subgroupIds } = buildDemoGroups(context);
  const pictures = buildDemoPictures();
  const tutorials = buildDemoTutorials();
  const library = buildDemoCases(context, pictures);

  return {
    users,
    accounts: users.map((row) => buildCredentialAccount({ userId: row.id, passwordHash }, { createdAt: row.createdAt })),
    licenseAcceptances: users
      .filter((row) => row.licenseVersion !== null)
      .map((row) => buildLicenseAcceptance({ userId: row.id }, { acceptedAt: row.createdAt })),
    organisations,
    subgroups,
    memberships: buildDemoMemberships(context, subgroupIds),
    invitations: DEMO_INVITATIONS.map((invite) =>
      buildInvitation({
        orgId: orgIds[invite.org],
        email: invite.email,
        role: invite.role,
        inviterId: idOf(userIds, invite.inviter),
        groupIds: (invite.subgroups ?? []).map((key) => subgroupIds[key]),
        expiresAt: new Date(now.getTime() + INVITATION_TOKEN_SECONDS * 1000),
        createdAt: daysAgo(now, 1),
      }),
    ),
    media: [...pictures.media, ...tutorials.media],
    tutorials: tutorials.tutorials,
    ...library,
    ...buildDemoNotifications(context, pictures, library.cases),
  };
}

function buildDemoUser(demo: DemoAccount, index: number, { now, userIds, orgIds }: DemoContext): NewUser {
  const firstOrg = demo.memberships[0]?.org;
  const createdAt = accountCreatedAt(now, index);
  return buildUser({
    id: idOf(userIds, demo.email),
    email: demo.email,
    givenName: demo.givenName,
    familyName: demo.familyName,
    role: demo.role,
    productType: demo.productType,
    emailVerified: demo.emailVerified ?? true,
    licenseVersion: (demo.hasAcceptedLicense ?? true) ? LICENSE_VERSION : null,
    activeOrgId: firstOrg ? orgIds[firstOrg] : null,
    stripeCustomerId: demo.stripeCustomerId ?? null,
    subscriptionStatus: demo.subscriptionStatus ?? null,
    createdAt,
    updatedAt: createdAt,
  });
}

function buildDemoGroups({ now, userIds, orgIds }: DemoContext) {
  const keyOwnerOf = (spec: OrgSpec): string | null => (spec.keyOwner ? idOf(userIds, spec.keyOwner) : null);
  const organisations = entriesOf(DEMO_ORGANISATIONS).map(([key, spec]: [DemoOrgKey, OrgSpec]) =>
    buildOrganisation({
      id: orgIds[key],
      name: spec.name,
      productType: spec.productType,
      seats: spec.seats,
      dev: spec.dev ?? false,
      inactive: spec.inactive ?? false,
      templatesFor: spec.templatesFor ?? null,
      ownerId: keyOwnerOf(spec),
      createdAt: daysAgo(now, 900),
      updatedAt: daysAgo(now, 900),
    }),
  );
  const parents = new Map(organisations.map((row) => [row.id, row]));
  const subgroupIds = mapValues(DEMO_SUBGROUPS, () => newId());
  const subgroups = entriesOf(DEMO_SUBGROUPS).map(([key, spec]: [DemoSubgroupKey, SubgroupSpec]) => {
    const parent = parents.get(orgIds[spec.parent]);
    if (!parent) throw new Error(`Unknown parent organisation ${spec.parent}`);
    return buildSubgroup(parent, {
      id: subgroupIds[key],
      name: spec.name,
      testing: spec.testing ?? false,
      ownerId: idOf(userIds, spec.owner),
      createdAt: daysAgo(now, 300),
      updatedAt: daysAgo(now, 300),
    });
  });
  return { organisations, subgroups, subgroupIds };
}

function buildDemoMemberships(
  { now, userIds, orgIds }: DemoContext,
  subgroupIds: Readonly<Record<DemoSubgroupKey, string>>,
): NewGroupMember[] {
  return DEMO_ACCOUNTS.flatMap((demo, index) => {
    const userId = idOf(userIds, demo.email);
    const joinedAt = accountCreatedAt(now, index);
    const organisations = demo.memberships.map(({ org, role }) =>
      buildMembership({ groupId: orgIds[org], userId, role }, { createdAt: joinedAt }),
    );
    const classes = (demo.subgroups ?? []).map((key) => {
      const parentRole = demo.memberships.find(({ org }) => org === DEMO_SUBGROUPS[key].parent)?.role ?? demo.role;
      return buildMembership({ groupId: subgroupIds[key], userId, role: parentRole }, { createdAt: joinedAt });
    });
    const removed = (demo.removedFrom ?? []).map((org) =>
      buildMembership({ groupId: orgIds[org], userId, role: demo.role }, { createdAt: joinedAt, removedAt: daysAgo(now, 30) }),
    );
    return [...organisations, ...classes, ...removed];
  });
}

type DemoPictures = {
  media: NewMedia[];
  avatars: ReadonlyMap<AvatarKey, CaseAvatar>;
  locations: ReadonlyMap<LocationKey, CasePicture>;
  announcementMediaId: string;
};

/** One media row per picture file; avatars and places point at them. */
function buildDemoPictures(): DemoPictures {
  const avatarMedia = AVATARS.map((avatar) => buildMedia({ path: avatarPicturePath(avatar.key), contentType: 'image/png' }));
  const sceneMedia = new Map<SceneKind, NewMedia>(
    SCENE_KINDS.map((kind) => [kind, buildMedia({ path: scenePicturePath(kind), contentType: 'image/png' })]),
  );
  const announcement = buildMedia({ ...ANNOUNCEMENT_IMAGE, fileName: 'new-pediatric-cases.png' });

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
  return {
    media: [...avatarMedia, ...sceneMedia.values(), announcement],
    avatars,
    locations,
    announcementMediaId: announcement.id,
  };
}

/** Every tutorial plays the same short video, through a media row of its own. */
function buildDemoTutorials() {
  const rows = TUTORIALS.map((spec) => {
    const video = buildMedia({ ...TUTORIAL_VIDEO, fileName: `${slugify(spec.title)}.webm` });
    return { video, tutorial: buildTutorial({ ...spec, mediaId: video.id }) };
  });
  return { media: rows.map((row) => row.video), tutorials: rows.map((row) => row.tutorial) };
}

function buildDemoCases(context: DemoContext, pictures: DemoPictures) {
  const { now, random, userIds, orgIds } = context;
  const templateNames = new Set(TEMPLATE_LIBRARY.EMS.map((spec) => spec.name));
  const fromScenario = (spec: ScenarioSpec): CaseInput => ({
    name: spec.name,
    tags: spec.tags,
    avatar: pictureOf(pictures.avatars, spec.avatar),
    startLocation: pictureOf(pictures.locations, spec.start),
    endLocation: pictureOf(pictures.locations, spec.end),
    chiefComplaint: spec.chiefComplaint,
    learningObjectives: spec.learningObjectives,
  });
  /** A date in the last `days` days, older for earlier positions of a list of `count`. */
  const spreadDate = (index: number, count: number, days: number): Date => daysAgo(now, days * (1 - (index + random()) / count));

  const caseShares: NewCaseShare[] = [];
  const riverside = EMS_LIBRARY.map((spec, index) => {
    const authorId = idOf(userIds, RIVERSIDE_AUTHORS[index % RIVERSIDE_AUTHORS.length] ?? 'instructor@demo.test');
    const shares: CaseShareEntry[] = SHARED_WITH_NORTHGATE.includes(spec.name)
      ? [{ shareType: 'group', from: authorId, to: orgIds.northgate }]
      : [];
    const createdAt = spreadDate(index, EMS_LIBRARY.length, 730);
    const updatedAt = new Date(createdAt.getTime() + random() * (now.getTime() - createdAt.getTime()));
    const row = buildCase({
      ...fromScenario(spec),
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

  const templates = (Object.keys(TEMPLATE_LIBRARY) as ProductType[]).flatMap((productType) =>
    TEMPLATE_LIBRARY[productType].map((spec, index) =>
      buildCase({
        ...fromScenario(spec),
        ownerId: idOf(userIds, 'super@demo.test'),
        ownerOrgId: orgIds[TEMPLATE_ORG[productType]],
        origin: 'PatientSim',
        isTemplate: true,
        // The first is published and in App Lab, the second only published, the third only in App Lab.
        published: index < 2,
        appLabOrgId: index === 0 || index === 2 ? orgIds[APP_LAB_ORG[productType]] : null,
        createdAt: spreadDate(index, TEMPLATE_LIBRARY[productType].length, 780),
      }),
    ),
  );

  const ownLibrary = (specs: readonly ScenarioSpec[], org: DemoOrgKey, author: string) =>
    specs.map((spec, index) =>
      buildCase({
        ...fromScenario(spec),
        ownerId: idOf(userIds, author),
        ownerOrgId: orgIds[org],
        origin: 'Original',
        createdAt: spreadDate(index, specs.length, 200),
      }),
    );

  const cases = [
    ...riverside,
    ...templates,
    ...ownLibrary(NURSING_LIBRARY, 'northgate', 'nurse@demo.test'),
    ...ownLibrary(MILITARY_LIBRARY, 'harbor', 'medic@demo.test'),
  ];
  return {
    cases,
    caseShares,
    caseFavorites: buildDemoFavorites(context, riverside),
    casePlays: buildDemoPlays(context, riverside),
  };
}

function buildDemoFavorites({ now, userIds }: DemoContext, cases: readonly NewCase[]): NewCaseFavorite[] {
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
function buildDemoPlays({ now, random, userIds }: DemoContext, cases: readonly NewCase[]): NewCasePlay[] {
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

function buildDemoNotifications(
  { now, userIds }: DemoContext,
  pictures: DemoPictures,
  cases: readonly NewCase[],
): { notifications: NewNotification[]; notificationTargets: NewNotificationTarget[] } {
  const senderId = idOf(userIds, 'super@demo.test');
  const goToCases = { label: 'Go to', type: 'URL', metadata: { url: '/authoring/cases' } };
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 60 * 60 * 1000);

  const forInstructors = buildNotification({
    type: 'INFO',
    title: 'New EMS templates',
    message:
      'Five EMS scenario templates are ready to copy into your library, including Chest Pain at the Gym and Pediatric Asthma Exacerbation.',
    color: '#018786',
    actions: [goToCases],
    senderId,
    date: hoursAgo(48),
  });
  // Newest first: the welcome is the first slide of the carousel.
  const popups = [
    buildNotification({
      type: 'POPUP_MESSAGE',
      title: 'Welcome to PatientSim',
      message:
        'Your instructors at Riverside EMS Academy have prepared a library of scenarios for your cohort. Pick one and run your first call.',
      color: '#018786',
      actions: [goToCases],
      senderId,
      date: hoursAgo(1),
    }),
    buildNotification({
      type: 'POPUP_MESSAGE',
      title: 'New: Pediatric cases',
      message: 'New pediatric scenarios were added this week, from croup at night to a febrile seizure at home.',
      color: '#ff8000',
      media: { type: 'IMAGE', url: mediaUrl(pictures.announcementMediaId) },
      actions: [goToCases],
      senderId,
      date: hoursAgo(2),
    }),
    buildNotification({
      type: 'POPUP_MESSAGE',
      title: 'Skills check on Friday',
      message: 'The airway skills check is on Friday. Practise the opioid overdose scenario before then.',
      color: '#ffb300',
      actions: [
        { label: 'Go to', type: 'CASE_LINK', metadata: { caseId: caseNamed(cases, 'Opioid Overdose in a Parking Garage').id } },
      ],
      senderId,
      date: hoursAgo(3),
    }),
  ];
  const student2 = DEMO_ACCOUNTS.find((demo) => demo.email === 'student2@demo.test');
  const student2Label = student2 ? `${student2.givenName} ${student2.familyName}` : null;

  return {
    notifications: [forInstructors, ...popups],
    notificationTargets: [
      buildNotificationTarget({
        notificationId: forInstructors.id,
        principalType: 'GROUP',
        principalId: 'ALL_INSTRUCTORS',
        label: 'All instructors',
      }),
      ...popups.map((popup) =>
        buildNotificationTarget({
          notificationId: popup.id,
          principalType: 'USER',
          principalId: idOf(userIds, 'student2@demo.test'),
          label: student2Label,
        }),
      ),
    ],
  };
}

function idOf(ids: ReadonlyMap<string, string>, email: string): string {
  const id = ids.get(email);
  if (!id) throw new Error(`No demo account ${email}`);
  return id;
}

function pictureOf<K, V>(pictures: ReadonlyMap<K, V>, key: K): V {
  const picture = pictures.get(key);
  if (!picture) throw new Error(`No picture for ${String(key)}`);
  return picture;
}

function caseNamed(cases: readonly NewCase[], name: string): NewCase {
  const found = cases.find((row) => row.name === name);
  if (!found) throw new Error(`No demo case named ${name}`);
  return found;
}

/** Accounts are older than the oldest case, a few days apart in the order of `DEMO_ACCOUNTS`. */
function accountCreatedAt(now: Date, index: number): Date {
  return daysAgo(now, 800 - index * 9);
}

function daysAgo(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function entriesOf<K extends string, V>(record: Record<K, V>): [K, V][] {
  return Object.entries(record) as [K, V][];
}

function mapValues<K extends string, V, W>(record: Record<K, V>, map: (value: V, key: K) => W): Record<K, W> {
  return Object.fromEntries(entriesOf(record).map(([key, value]) => [key, map(value, key)])) as Record<K, W>;
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
