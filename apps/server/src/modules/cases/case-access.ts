/**
 * The rules of a case's access lists and of the columns derived from its document (spec sections
 * 3, 4 and 6). The demo seed, the test builders and the case service all build rows through them,
 * so what the list filters and sorts on always follows the document.
 */
import { PUBLISHED_PSEUDO_GROUPS } from '@patientsim/domain/cases/case.schemas';
import type { CaseAccess, CaseAccessList } from '../../db/schema/cases.js';

export { PUBLISHED_PSEUDO_GROUPS };

/** Prefixes of the readers entries that are not ids (ids never hold a colon). */
export const ROLE_READER_PREFIX = 'role:';
export const PRODUCT_TYPE_READER_PREFIX = 'productType:';

export function accessList(groups: readonly string[] = [], users: readonly string[] = []): CaseAccessList {
  return { groups: [...new Set(groups)], users: [...new Set(users)], roles: [], productType: [] };
}

/**
 * The access of a case owned by a user in an organisation: the organisation reads and runs it,
 * the author edits and shares it.
 */
export function buildCaseAccess({
  ownerId,
  ownerOrgId,
  extraGroups = [],
  readerGroups = [],
  readerUsers = [],
}: {
  ownerId: string | null;
  ownerOrgId: string | null;
  /** Granted read and run (published pseudo groups, an app-lab organisation). */
  extraGroups?: readonly string[];
  /** Granted read only (shares). */
  readerGroups?: readonly string[];
  readerUsers?: readonly string[];
}): CaseAccess {
  const orgGroups = ownerOrgId ? [ownerOrgId] : [];
  const ownerUsers = ownerId ? [ownerId] : [];
  return {
    owner: ownerId,
    ownerOrg: ownerOrgId,
    read: accessList([...orgGroups, ...extraGroups, ...readerGroups], readerUsers),
    write: accessList([], ownerUsers),
    run: accessList([...orgGroups, ...extraGroups]),
    share: accessList([], ownerUsers),
  };
}

export type TimedAccess = { users: string[]; groups: string[] };

/**
 * Every principal that may see a case, flattened for the readers index: its read and run groups
 * and users, its roles as `role:<ROLE>`, its product types as `productType:<TYPE>`, and the people
 * and groups with timed access (assignments).
 */
export function flattenReaders(access: CaseAccess, timedAccess: TimedAccess | null = null): string[] {
  const { read, run } = access;
  return [
    ...new Set([
      ...read.groups,
      ...run.groups,
      ...read.users,
      ...run.users,
      ...[...read.roles, ...run.roles].map((role) => `${ROLE_READER_PREFIX}${role}`),
      ...[...read.productType, ...run.productType].map((type) => `${PRODUCT_TYPE_READER_PREFIX}${type}`),
      ...(timedAccess?.users ?? []),
      ...(timedAccess?.groups ?? []),
    ]),
  ];
}

/** Published means the read or run groups hold ALL_ADMINS (spec section 4). */
export function isPublished(access: CaseAccess): boolean {
  return access.read.groups.includes('ALL_ADMINS') || access.run.groups.includes('ALL_ADMINS');
}

/** In App Lab means the read or run groups hold an App Lab organisation. */
export function isInAppLab(access: CaseAccess, appLabOrgIds: readonly string[]): boolean {
  return appLabOrgIds.some((id) => access.read.groups.includes(id) || access.run.groups.includes(id));
}

/** Publishing adds ALL_ADMINS and ALL_INSTRUCTORS to the read and run groups; unpublishing removes them. */
export function withPublished(access: CaseAccess, published: boolean): CaseAccess {
  return withGroups(access, PUBLISHED_PSEUDO_GROUPS, published);
}

/** App Lab adds the product type's App Lab organisation to the read and run groups, or removes it. */
export function withAppLab(access: CaseAccess, appLabOrgId: string, applab: boolean): CaseAccess {
  return withGroups(access, [appLabOrgId], applab);
}

function withGroups(access: CaseAccess, groups: readonly string[], present: boolean): CaseAccess {
  const apply = (list: CaseAccessList): CaseAccessList => ({
    ...list,
    groups: present ? [...new Set([...list.groups, ...groups])] : list.groups.filter((g) => !groups.includes(g)),
  });
  return { ...access, read: apply(access.read), run: apply(access.run) };
}

/** What the case list searches: name, tags, patient, both places and the document's own text, lower case. */
export function buildSearchableText(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => Boolean(part))
    .join(' ')
    .toLowerCase();
}

type Named = { name?: { en?: unknown } | null } | null | undefined;
const englishName = (value: Named): string | null => {
  const en = value?.name?.en;
  return typeof en === 'string' ? en : null;
};

/**
 * The indexed columns of a case row, derived from its document and access (everything the list
 * sorts, filters and searches on). `appLabOrgIds` are the App Lab organisations (group.app_lab_for).
 */
export function deriveCaseColumns(document: Record<string, unknown>, access: CaseAccess, appLabOrgIds: readonly string[]) {
  const doc = document as {
    name?: string;
    tags?: string | null;
    _avatar?: Named;
    _startLocation?: Named;
    _endLocation?: Named;
    searchableText?: string;
    origin?: string | null;
    isTemplate?: boolean;
    needsEcUpdate?: boolean;
    ignoreEcUpdate?: boolean;
    updateStatus?: string | null;
    errorsCount?: number;
    warningsCount?: number;
    timed_access?: TimedAccess | null;
  };
  const avatarName = englishName(doc._avatar);
  const startLocationName = englishName(doc._startLocation);
  const endLocationName = englishName(doc._endLocation);
  const name = doc.name ?? '';
  const searchParts = [name, doc.tags, avatarName, startLocationName, endLocationName];
  const ownText = doc.searchableText?.toLowerCase();
  const base = buildSearchableText(searchParts);
  return {
    name,
    ownerId: access.owner,
    ownerOrgId: access.ownerOrg,
    readers: flattenReaders(access, doc.timed_access ?? null),
    avatarName,
    startLocationName,
    endLocationName,
    origin: doc.origin ?? null,
    isTemplate: doc.isTemplate ?? false,
    published: isPublished(access),
    applab: isInAppLab(access, appLabOrgIds),
    needsEcUpdate: doc.needsEcUpdate ?? false,
    ignoreEcUpdate: doc.ignoreEcUpdate ?? false,
    updateStatus: doc.updateStatus ?? null,
    errorsCount: doc.errorsCount ?? 0,
    warningsCount: doc.warningsCount ?? 0,
    searchableText: ownText && !base.includes(ownText) ? `${base} ${ownText}` : base,
  };
}
