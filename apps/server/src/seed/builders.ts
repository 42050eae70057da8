/**
 * Builders of plain, insertable rows with sensible defaults. They never touch the database:
 * the demo seed and the test fixtures insert what they return. Every builder takes overrides.
 */
import { INVITATION_TOKEN_SECONDS, LICENSE_VERSION } from '@patientsim/domain/common/constants';
import { prefixSubgroupName } from '@patientsim/domain/groups/group.schemas';
import { DEFAULT_PRODUCT_TYPE, isProductType, type ProductType } from '@patientsim/domain/product/product-types';
import type { Role } from '@patientsim/domain/roles/roles';
import type {
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
import { hashToken, newId, newToken } from '../lib/ids.js';
import {
  buildCaseAccess,
  buildSearchableText,
  deriveCaseColumns,
  PUBLISHED_PSEUDO_GROUPS,
} from '../modules/cases/case-access.js';

export type NewUser = typeof user.$inferInsert;
export type NewLicenseAcceptance = typeof licenseAcceptance.$inferInsert;
export type NewGroup = typeof group.$inferInsert;
export type NewGroupMember = typeof groupMember.$inferInsert;
export type NewInvitation = typeof invitation.$inferInsert;
export type NewCase = typeof caseConfiguration.$inferInsert;
export type NewCaseShare = typeof caseShare.$inferInsert;
export type NewCaseFavorite = typeof caseFavorite.$inferInsert;
export type NewCasePlay = typeof casePlay.$inferInsert;
export type NewMedia = typeof media.$inferInsert;
export type NewTutorial = typeof tutorial.$inferInsert;
export type NewNotification = typeof notification.$inferInsert;
export type NewNotificationTarget = typeof notificationTarget.$inferInsert;

/** Typed role and product type in place of the columns' plain text. */
type Typed<T, K extends keyof T, V> = Omit<T, K> & { [P in K]?: V };

let sequence = 0;
/** Distinct default names and e-mails within one process. */
function nextSequence(): number {
  sequence += 1;
  return sequence;
}

export type UserOverrides = Typed<Partial<NewUser>, 'role', Role> & { productType?: ProductType };

/** A verified user who accepted the current license; `name` follows the given and family names. */
export function buildUser(overrides: UserOverrides = {}): NewUser {
  const n = nextSequence();
  const givenName = overrides.givenName ?? 'Test';
  const familyName = overrides.familyName ?? `User${n}`;
  return {
    id: newId(),
    emailVerified: true,
    role: 'STUDENT',
    productType: 'EMS',
    activeOrgId: null,
    stripeCustomerId: null,
    subscriptionStatus: null,
    licenseVersion: LICENSE_VERSION,
    ...overrides,
    givenName,
    familyName,
    name: overrides.name ?? `${givenName} ${familyName}`,
    email: (overrides.email ?? `user${n}@example.test`).trim().toLowerCase(),
  };
}

export function buildLicenseAcceptance(
  { userId }: { userId: string },
  overrides: Partial<NewLicenseAcceptance> = {},
): NewLicenseAcceptance {
  return { id: newId(), userId, version: LICENSE_VERSION, ...overrides };
}

export type GroupOverrides = Omit<Partial<NewGroup>, 'productType' | 'templatesFor' | 'contentFor' | 'appLabFor'> & {
  productType?: ProductType;
  templatesFor?: ProductType | null;
  appLabFor?: ProductType | null;
  contentFor?: ProductType | null;
};

/** A top-level organisation: no parent, no seats, every flag off. */
export function buildOrganisation(overrides: GroupOverrides = {}): NewGroup {
  return {
    id: newId(),
    name: `Organisation ${nextSequence()}`,
    ownerId: null,
    seats: 0,
    productType: 'EMS',
    dev: false,
    testing: false,
    debug: false,
    ai: false,
    inactive: false,
    templatesFor: null,
    contentFor: null,
    appLabFor: null,
    ...overrides,
    parentId: null,
  };
}

/** A sub-group of `parent`: its stored name carries the parent's prefix, its product type is the parent's. */
export function buildSubgroup(
  parent: Pick<NewGroup, 'id' | 'productType'>,
  overrides: Omit<GroupOverrides, 'parentId'> = {},
): NewGroup {
  const name = overrides.name ?? `Group ${nextSequence()}`;
  return {
    ...buildOrganisation({
      productType: isProductType(parent.productType) ? parent.productType : DEFAULT_PRODUCT_TYPE,
      ...overrides,
    }),
    name: prefixSubgroupName(parent.id, name),
    parentId: parent.id,
  };
}

/** Membership of a user in an organisation or sub-group, with the role that applies there. */
export function buildMembership(
  { groupId, userId, role }: { groupId: string; userId: string; role: Role | null },
  overrides: Partial<NewGroupMember> = {},
): NewGroupMember {
  return { groupId, userId, role, subscribed: false, removedAt: null, ...overrides };
}

export type InvitationOverrides = Typed<Partial<NewInvitation>, 'role', Role> & { orgId: string | null; email: string };

/**
 * A pending invitation valid for the standard lifetime. Only the hash of its token is stored;
 * a test that needs to redeem it passes `tokenHash: hashToken(token)` for a token it keeps.
 */
export function buildInvitation(overrides: InvitationOverrides): NewInvitation {
  return {
    id: newId(),
    role: 'STUDENT',
    productType: null,
    throughSubscription: false,
    groupIds: [],
    tokenHash: hashToken(newToken()),
    inviterId: null,
    status: 'pending',
    expiresAt: new Date(Date.now() + INVITATION_TOKEN_SECONDS * 1000),
    ...overrides,
    email: overrides.email.trim().toLowerCase(),
  };
}

export type CasePicture = { name: string; pictureUrl: string };
export type CaseAvatar = CasePicture & { id: string; key: string };
export type CaseShareEntry = { shareType: 'user' | 'group'; from: string; to: string };

export type CaseInput = {
  id?: string;
  name?: string;
  /** Free text, as the case document holds it. */
  tags?: string;
  ownerId?: string | null;
  ownerOrgId?: string | null;
  avatar?: CaseAvatar | null;
  startLocation?: CasePicture | null;
  endLocation?: CasePicture | null;
  chiefComplaint?: string;
  learningObjectives?: string;
  origin?: string | null;
  isTemplate?: boolean;
  /** Adds the published pseudo groups to the read and run groups. */
  published?: boolean;
  /** The app-lab organisation of the product type: added to the read and run groups. */
  appLabOrgId?: string | null;
  /** Group shares also grant read access to the group, user shares to the user. */
  shares?: readonly CaseShareEntry[];
  needsEcUpdate?: boolean;
  ignoreEcUpdate?: boolean;
  updateStatus?: string | null;
  errorsCount?: number;
  warningsCount?: number;
  outdatedMedications?: readonly string[];
  outdatedEcNodes?: readonly string[];
  /** People and groups the case is assigned to (timed access). */
  timedAccess?: { users: readonly string[]; groups: readonly string[] };
  createdAt?: Date;
  updatedAt?: Date;
};

/**
 * A case configuration: the case document (spec section 3) and the indexed columns derived
 * from it (names of patient and places, published, app lab, readers, searchable text).
 */
export function buildCase(input: CaseInput = {}): NewCase {
  const id = input.id ?? newId();
  const name = input.name ?? `Scenario ${nextSequence()}`;
  const tags = input.tags ?? '';
  const ownerId = input.ownerId ?? null;
  const ownerOrgId = input.ownerOrgId ?? null;
  const shares = input.shares ?? [];
  const extraGroups = [...(input.published ? PUBLISHED_PSEUDO_GROUPS : []), ...(input.appLabOrgId ? [input.appLabOrgId] : [])];
  const access = buildCaseAccess({
    ownerId,
    ownerOrgId,
    extraGroups,
    readerGroups: shares.filter((share) => share.shareType === 'group').map((share) => share.to),
    readerUsers: shares.filter((share) => share.shareType === 'user').map((share) => share.to),
  });
  const avatar = input.avatar ?? null;
  const start = input.startLocation ?? null;
  const end = input.endLocation ?? null;
  const createdAt = input.createdAt ?? new Date();
  const updatedAt = input.updatedAt ?? createdAt;
  const isTemplate = input.isTemplate ?? false;
  const needsEcUpdate = input.needsEcUpdate ?? false;
  const ignoreEcUpdate = input.ignoreEcUpdate ?? false;
  const errorsCount = input.errorsCount ?? 0;
  const warningsCount = input.warningsCount ?? 0;
  const origin = input.origin ?? null;
  const searchableText = buildSearchableText([name, tags, avatar?.name, start?.name, end?.name]);

  const document = {
    id,
    name,
    tags,
    dispatch: {
      learningObjectives: { caption: { en: input.learningObjectives ?? '' }, displayed: true },
      chiefComplaint: { caption: { en: input.chiefComplaint ?? '' }, displayed: true },
    },
    access,
    _avatar: avatar && { id: avatar.id, key: avatar.key, name: { en: avatar.name }, picture: { url: avatar.pictureUrl } },
    _startLocation: start && { name: { en: start.name }, picture: { url: start.pictureUrl } },
    _endLocation: end && { name: { en: end.name }, picture: { url: end.pictureUrl } },
    isTemplate,
    createdAt: createdAt.toISOString(),
    needsEcUpdate,
    ignoreEcUpdate,
    errorsCount,
    warningsCount,
    outdatedMedications: [...(input.outdatedMedications ?? [])],
    outdatedEcNodes: [...(input.outdatedEcNodes ?? [])],
    shares: shares.map((share) => ({ ...share })),
    timed_access: { users: [...(input.timedAccess?.users ?? [])], groups: [...(input.timedAccess?.groups ?? [])] },
    searchableText,
    origin,
    updateStatus: input.updateStatus ?? null,
  };
  const derived = deriveCaseColumns(document, access, input.appLabOrgId ? [input.appLabOrgId] : []);

  return {
    id,
    document: { ...document, published: derived.published, applab: derived.applab },
    access,
    ...derived,
    createdAt,
    updatedAt,
  };
}

export function buildCaseShare(
  { caseId, shareType, from, to }: { caseId: string } & CaseShareEntry,
  overrides: Partial<NewCaseShare> = {},
): NewCaseShare {
  return { id: newId(), caseId, shareType, fromId: from, toId: to, ...overrides };
}

export function buildCaseFavorite(
  { caseId, userId }: { caseId: string; userId: string },
  overrides: Partial<NewCaseFavorite> = {},
): NewCaseFavorite {
  return { caseId, userId, ...overrides };
}

/** A user's history with a case: plays and when it was last played and last opened. */
export function buildCasePlay(
  { caseId, userId }: { caseId: string; userId: string },
  overrides: Partial<NewCasePlay> = {},
): NewCasePlay {
  return { caseId, userId, plays: 0, lastPlayed: null, lastAccessed: null, ...overrides };
}

/** A shipped media file: a path in the seed assets. */
export function buildMedia(overrides: Partial<NewMedia> & { path: string; contentType: string }): NewMedia {
  return { id: newId(), fileName: overrides.path.split('/').pop() ?? overrides.path, ...overrides };
}

export function buildTutorial(
  overrides: Typed<Partial<NewTutorial>, 'productType', ProductType | null> & Pick<NewTutorial, 'mediaId' | 'category'>,
): NewTutorial {
  return { id: newId(), title: `Tutorial ${nextSequence()}`, productType: null, ordinal: 0, ...overrides };
}

/** An INFO notification in the default colour, with no media and no actions. */
export function buildNotification(overrides: Partial<NewNotification> = {}): NewNotification {
  return {
    id: newId(),
    type: 'INFO',
    title: `Notice ${nextSequence()}`,
    message: '',
    color: 'red',
    media: null,
    animation: null,
    actions: [],
    senderId: null,
    date: new Date(),
    ...overrides,
  };
}

export function buildNotificationTarget({
  notificationId,
  principalType,
  principalId,
  label = null,
}: {
  notificationId: string;
  principalType: 'GROUP' | 'USER';
  principalId: string;
  label?: string | null;
}): NewNotificationTarget {
  return { notificationId, principalType, principalId, label };
}
