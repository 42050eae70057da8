/**
 * Who the caller is to the case store: the principals the access lists name (`viewerOf`), what a
 * public content reader may read, the permission checks, and one case the caller holds an access
 * kind on.
 */
import { reachesOrganisationContent } from '@patientsim/domain/account/subscription';
import type { CaseAccessKind } from '@patientsim/domain/cases/case.schemas';
import { CASE_TEXTS } from '@patientsim/domain/cases/case-list';
import { hasPermission, type Permission } from '@patientsim/domain/roles/permissions';
import type { Database } from '../../db/client.js';
import { ownedOrganisationIdsOf, principalsOf } from '../../identity/principals.js';
import { AppError } from '../../lib/errors.js';
import type { ReadCache } from '../../lib/read-cache.js';
import type { RequestUser } from '../../lib/access.js';
import { PRODUCT_TYPE_READER_PREFIX, ROLE_READER_PREFIX } from './case-access.js';
import * as repo from './cases.repository.js';

export type CaseContext = { db: Database; cache: ReadCache; actor: RequestUser; ip?: string | null };

/**
 * Who the caller is to the access lists. The library is that of the organisation the caller is
 * signed in with (the token's active organisation, changed with changeOrg): that organisation,
 * their sub-groups in it, the pseudo groups of their role there, ALL_USERS, ALL_KEYOWNERS for its
 * key owner, and grants to the person, their role or their product type. Without an organisation,
 * when it is inactive, or as its subscribed member without an active subscription of their own
 * (decision 0035), the caller has no access to cases (null); without any organisation, the caller
 * reads the public content of their product type (`publicContentViewerOf`).
 */
export async function viewerOf(
  { db, cache }: Pick<CaseContext, 'db' | 'cache'>,
  actor: RequestUser,
): Promise<repo.CaseViewer | null> {
  const orgId = actor.org;
  if (!orgId) return publicContentViewerOf(db, actor);
  if (actor.inactive) return null;
  const org = actor.groupsData.find((entry) => entry._id === orgId && entry.parent === null);
  if (!org || org.inactive) return null;
  if (!reachesOrganisationContent(actor.app_metadata, orgId)) return null;
  const inOrg = actor.groupsData.filter((entry) => entry._id === orgId || entry.parent === orgId);
  const ownsOrg = (await ownedOrganisationIdsOf({ db, cache }, actor.id)).includes(orgId);
  const principals = principalsOf({ id: actor.id, role: actor.role, groupsData: inOrg, keyOwnerOf: ownsOrg ? [orgId] : [] });
  const groups = principals.filter((p) => p.principalType === 'GROUP').map((p) => p.principalId);
  return {
    userId: actor.id,
    groups,
    roles: [actor.role],
    productTypes: [actor.productType],
    readers: [actor.id, ...groups, `${ROLE_READER_PREFIX}${actor.role}`, `${PRODUCT_TYPE_READER_PREFIX}${actor.productType}`],
  };
}

/**
 * A person with no organisation (a self-signed-up account, or one removed from their last
 * organisation) reads the published scenarios of their product type's public content organisation
 * (spec section 1), and writes nothing: no edit, update, favourite or copy. Their own id is kept
 * (the list reads their plays) but never names them an owner here: every read also requires the
 * case to be published by that organisation (`isPublicContent`, and the `publicContent` filter).
 */
async function publicContentViewerOf(db: Database, actor: RequestUser): Promise<repo.CaseViewer | null> {
  if (actor.groupsData.length > 0) return null;
  const contentOrgId = await repo.findPublicContentOrganisationId(db, actor.productType);
  if (!contentOrgId) return null;
  return {
    userId: actor.id,
    groups: [contentOrgId],
    roles: [],
    productTypes: [],
    readers: [contentOrgId],
    isPublicContentReader: true,
  };
}

/** Whether a public content reader may read this case: published, and owned by their content organisation. */
function isPublicContent(viewer: repo.CaseViewer, row: { published: boolean; ownerOrgId: string | null }): boolean {
  return row.published && row.ownerOrgId !== null && viewer.groups.includes(row.ownerOrgId);
}

/** What a viewer may read of a case they hold read access on (every case, but for a public content reader). */
export function isReadableBy(viewer: repo.CaseViewer, row: { published: boolean; ownerOrgId: string | null }): boolean {
  return !viewer.isPublicContentReader || isPublicContent(viewer, row);
}

/** A viewer that reaches no case: the caller's own id only, which access lists never hold without their organisation. */
export function noAccessViewer(actor: RequestUser): repo.CaseViewer {
  return { userId: actor.id, groups: [], roles: [], productTypes: [], readers: [] };
}

export function requirePermission(actor: RequestUser, permission: Permission): void {
  if (!hasPermission(actor.role, permission)) throw new AppError('FORBIDDEN');
}

/** Template information is refused to people without an organisation and to students (spec section 5). */
export function requireTemplateReader(actor: RequestUser): void {
  if (!actor.org) throw new AppError('CASE_NO_ORGANIZATION', { message: CASE_TEXTS.noOrganisation });
  if (!hasPermission(actor.role, 'cases:template-info'))
    throw new AppError('CASE_STUDENT_REFUSED', { message: CASE_TEXTS.studentRefused });
}

/** One case the caller holds `kind` on, or null (unknown, or not theirs: never told apart). */
async function findAccessible({ db, cache, actor }: CaseContext, id: string, kind: CaseAccessKind) {
  const viewer = await viewerOf({ db, cache }, actor);
  if (!viewer) return null;
  if (viewer.isPublicContentReader && kind !== 'READ') return null;
  const [row] = await repo.findCaseRows(db, { viewer, ids: [id], kind });
  return row && isReadableBy(viewer, row) ? row : null;
}

export async function requireAccessible(ctx: CaseContext, id: string, kind: CaseAccessKind) {
  const row = await findAccessible(ctx, id, kind);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return row;
}
