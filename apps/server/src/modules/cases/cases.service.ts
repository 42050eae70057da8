/**
 * The case store (spec sections 3 and 4; decisions 11, 12 and 17): one service behind the GraphQL
 * resolvers and the REST route. Every function takes the caller as the bearer token resolved them
 * (current role and memberships) and checks the permission table and the case's access lists.
 */
import type { z } from 'zod';
import {
  type CaseAccessKind,
  type CaseConfigurationPage,
  type CaseConfigurationResult,
  type CaseDocumentInput,
  type CaseListArgs,
  type CaseUpdateResult,
  type CaseAccessInputSchema,
} from '@patientsim/domain/cases/case.schemas';
import { reachesOrganisationContent } from '@patientsim/domain/account/subscription';
import { CASE_COUNT_LIMIT, CASE_TEXTS, type CaseUpdateStatus, isCaseUpdatePending } from '@patientsim/domain/cases/case-list';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { hasPermission, type Permission } from '@patientsim/domain/roles/permissions';
import { isProductType, type ProductType } from '@patientsim/domain/product/product-types';
import type { Database } from '../../db/client.js';
import type { CaseAccess } from '../../db/schema/cases.js';
import { ownedOrganisationIdsOf, principalsOf } from '../../identity/principals.js';
import { audit, auditAs, countedName } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { ReadCache } from '../../lib/read-cache.js';
import { newId } from '../../lib/ids.js';
import type { RequestUser } from '../../lib/access.js';
import {
  buildCaseAccess,
  deriveCaseColumns,
  PRODUCT_TYPE_READER_PREFIX,
  ROLE_READER_PREFIX,
  withAppLab,
  withPublished,
} from './case-access.js';
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
function isReadableBy(viewer: repo.CaseViewer, row: { published: boolean; ownerOrgId: string | null }): boolean {
  return !viewer.isPublicContentReader || isPublicContent(viewer, row);
}

/** A viewer that reaches no case: the caller's own id only, which access lists never hold without their organisation. */
function noAccessViewer(actor: RequestUser): repo.CaseViewer {
  return { userId: actor.id, groups: [], roles: [], productTypes: [], readers: [] };
}

function requirePermission(actor: RequestUser, permission: Permission): void {
  if (!hasPermission(actor.role, permission)) throw new AppError('FORBIDDEN');
}

/** Template information is refused to people without an organisation and to students (spec section 5). */
function requireTemplateReader(actor: RequestUser): void {
  if (!actor.org) throw new AppError('CASE_NO_ORGANIZATION', { message: CASE_TEXTS.noOrganisation });
  if (actor.role === 'STUDENT') throw new AppError('CASE_STUDENT_REFUSED', { message: CASE_TEXTS.studentRefused });
}

/** Where a page ends, and the list's count made on its first page (later pages do not count again). */
type Cursor = { values: repo.CursorValue[]; id: string; total: number; capped: boolean };

function encodeCursor(signature: string, cursor: Cursor): string {
  return Buffer.from(
    JSON.stringify({ s: signature, v: cursor.values, id: cursor.id, n: cursor.total, ...(cursor.capped ? { c: true } : {}) }),
  ).toString('base64url');
}

function decodeCursor(plan: repo.SortPlan, raw: string): Cursor {
  const invalid = () => new AppError('VALIDATION_FAILED', { message: 'after: Invalid cursor' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { s, v, id, n, c } = parsed as { s?: unknown; v?: unknown; id?: unknown; n?: unknown; c?: unknown };
  if (s !== plan.signature || !Array.isArray(v) || typeof id !== 'string' || id.length === 0 || id.length > 64) throw invalid();
  if (!Number.isSafeInteger(n) || (n as number) < 0 || (n as number) > CASE_COUNT_LIMIT) throw invalid();
  if (c !== undefined && c !== true) throw invalid();
  if (!repo.fitsKey(plan, v)) throw invalid();
  return { values: v, id, total: n as number, capped: c === true };
}

const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
const asNullableObject = <T>(value: unknown): T | null => (value && typeof value === 'object' ? (value as T) : null);

/**
 * A case of a page as the API answers it, without the access lists and the searchable text when
 * the query did not ask for them (`repo.ResultFields`).
 */
export type ListedCase = Omit<CaseConfigurationResult, 'access' | 'searchableText'> &
  Partial<Pick<CaseConfigurationResult, 'access' | 'searchableText'>>;

/** A stored case as the API answers it to the caller (from its columns and the document's listed fields). */
export function toResult(row: repo.CaseResultRow, { forStudent }: { forStudent: boolean }): CaseConfigurationResult {
  return { ...toListed(row, { forStudent }), access: row.access, searchableText: row.searchableText };
}

/** A case of a page as the API answers it, with what its row holds of the fields read only when asked for. */
function toListed(row: repo.CaseListedRow, { forStudent }: { forStudent: boolean }): ListedCase {
  const doc = row.listDocument ?? {};
  const authorName = row.authorName ?? [row.authorGivenName, row.authorFamilyName].filter(Boolean).join(' ');
  const timed = asNullableObject<{ users?: unknown; groups?: unknown }>(doc.timed_access);
  const shares = Array.isArray(doc.shares) ? (doc.shares as CaseConfigurationResult['shares']) : [];
  return {
    id: row.id,
    name: row.name,
    tags: typeof doc.tags === 'string' ? doc.tags : null,
    dispatch: asNullableObject(doc.dispatch),
    ...(row.access !== null ? { access: row.access } : {}),
    author: row.ownerId ? { id: row.ownerId, name: authorName || row.ownerId } : null,
    _avatar: asNullableObject(doc._avatar),
    _startLocation: asNullableObject(doc._startLocation),
    _endLocation: asNullableObject(doc._endLocation),
    // Students see no template information (spec section 1).
    isTemplate: forStudent ? false : row.isTemplate,
    isFavorite: Boolean(row.isFavorite),
    lastPlayed: row.lastPlayed ? new Date(row.lastPlayed).toISOString() : null,
    lastAccessed: row.lastAccessed ? new Date(row.lastAccessed).toISOString() : null,
    createdAt: new Date(row.createdAt).toISOString(),
    needsEcUpdate: row.needsEcUpdate,
    ignoreEcUpdate: row.ignoreEcUpdate,
    updateStatus: (row.updateStatus as CaseUpdateStatus | null) ?? null,
    errorsCount: row.errorsCount,
    warningsCount: row.warningsCount,
    outdatedMedications: asList(doc.outdatedMedications),
    outdatedEcNodes: asList(doc.outdatedEcNodes),
    shares: shares.map((share) => ({ shareType: String(share.shareType), from: String(share.from), to: String(share.to) })),
    timed_access: timed ? { users: asList(timed.users), groups: asList(timed.groups) } : null,
    ...(row.searchableText !== null ? { searchableText: row.searchableText } : {}),
    origin: row.origin,
    published: forStudent ? false : row.published,
    applab: forStudent ? false : row.applab,
    canUpdate: Boolean(row.canUpdate),
  };
}

/** The caller's library (the query `caseConfigurations`). */
export async function listCases(
  { db, cache, actor }: CaseContext,
  args: CaseListArgs,
  fields: repo.ResultFields = repo.ALL_RESULT_FIELDS,
): Promise<Omit<CaseConfigurationPage, 'items'> & { items: ListedCase[] }> {
  const filters = args.filters ?? {};
  if (filters.template) requireTemplateReader(actor);
  const plan = repo.sortPlan(args.sortBy);
  const after = args.after ? decodeCursor(plan, args.after) : null;
  const viewer = await viewerOf({ db, cache }, actor);
  const empty = { items: [], nextCursor: null, totalCount: 0, totalCountCapped: false };
  if (!viewer) return empty;
  // A public content reader reads; the cases they may edit, run or share are none.
  if (viewer.isPublicContentReader && args.withAccess !== 'READ') return empty;
  const search = args.search?.trim() ? args.search.trim() : null;
  const query = {
    viewer,
    withAccess: args.withAccess,
    filters: {
      madeByMe: filters.madeByMe ?? false,
      sharedWithMe: filters.sharedWithMe ?? false,
      assignedToMe: filters.assignedToMe ?? false,
      favorited: filters.favorited ?? false,
      template: filters.template ?? false,
      publicContent: viewer.isPublicContentReader ?? false,
    },
    search,
  };
  const [found, counted] = await Promise.all([
    repo.findCaseResultPage(db, { ...query, plan, after, limit: args.first + 1, fields }),
    after
      ? Promise.resolve({ count: after.total, capped: after.capped })
      : repo.countCases(db, { ...query, limit: CASE_COUNT_LIMIT }),
  ]);
  const page = found.slice(0, args.first);
  const last = page.at(-1);
  const forStudent = actor.role === 'STUDENT';
  return {
    items: page.map(({ row }) => {
      const listed = toListed(row, { forStudent });
      return viewer.isPublicContentReader ? { ...listed, canUpdate: false } : listed;
    }),
    nextCursor:
      found.length > args.first && last
        ? encodeCursor(plan.signature, { values: last.sortValues, id: last.row.id, total: counted.count, capped: counted.capped })
        : null,
    totalCount: counted.count,
    totalCountCapped: counted.capped,
  };
}

/** One case the caller holds `kind` on, or null (unknown, or not theirs: never told apart). */
async function findAccessible({ db, cache, actor }: CaseContext, id: string, kind: CaseAccessKind) {
  const viewer = await viewerOf({ db, cache }, actor);
  if (!viewer) return null;
  if (viewer.isPublicContentReader && kind !== 'READ') return null;
  const [row] = await repo.findCaseRows(db, { viewer, ids: [id], kind });
  return row && isReadableBy(viewer, row) ? row : null;
}

async function requireAccessible(ctx: CaseContext, id: string, kind: CaseAccessKind) {
  const row = await findAccessible(ctx, id, kind);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return row;
}

/** Reads one case again after a write, as the caller sees it. */
async function reread(ctx: CaseContext, id: string): Promise<CaseConfigurationResult> {
  const viewer = (await viewerOf(ctx, ctx.actor)) ?? noAccessViewer(ctx.actor);
  const [row] = await repo.findCaseResults(ctx.db, { viewer, ids: [id], kind: 'ANY' });
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return toResult(row, { forStudent: ctx.actor.role === 'STUDENT' });
}

export async function getCase(ctx: CaseContext, id: string): Promise<CaseConfigurationResult | null> {
  const viewer = await viewerOf(ctx, ctx.actor);
  if (!viewer) return null;
  const [row] = await repo.findCaseResults(ctx.db, { viewer, ids: [id], kind: 'READ' });
  if (!row || !isReadableBy(viewer, { published: row.published, ownerOrgId: row.access.ownerOrg })) return null;
  const result = toResult(row, { forStudent: ctx.actor.role === 'STUDENT' });
  return viewer.isPublicContentReader ? { ...result, canUpdate: false } : result;
}

export async function setFavorite(ctx: CaseContext, id: string, favorite: boolean): Promise<CaseConfigurationResult> {
  await requireAccessible(ctx, id, 'READ');
  // A public content reader only reads: favourites are part of an organisation's library.
  if ((await viewerOf(ctx, ctx.actor))?.isPublicContentReader) throw new AppError('FORBIDDEN');
  if (favorite) await repo.addFavorite(ctx.db, id, ctx.actor.id);
  else await repo.removeFavorite(ctx.db, id, ctx.actor.id);
  return reread(ctx, id);
}

/**
 * The user's choices on pending effect-chain updates (spec section 4, decision 12). YES applies
 * the update (the outdated medications and case-logic nodes are brought up to date, the pending
 * flag clears) and validates the case: a case that still counts errors after it is ERRORED,
 * otherwise UPDATED. NO declines it (ignoreEcUpdate, DECLINED). Each case answers on its own: a
 * case the caller cannot edit, or without a pending update (none needed, or declined: that one is
 * updated in the Medications or Case Logic panel), carries an error and is left as it was.
 */
export async function updateEffectChains(
  ctx: CaseContext,
  decisions: readonly { id: string; choice: 'YES' | 'NO' }[],
): Promise<CaseUpdateResult[]> {
  const viewer = await viewerOf(ctx, ctx.actor);
  const ids = decisions.map((d) => d.id);
  const writer = viewer && !viewer.isPublicContentReader ? viewer : null;
  const rows = writer ? await repo.findCaseRows(ctx.db, { viewer: writer, ids, kind: 'WRITE' }) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  // A case the caller reads but may not edit is on their screen: it is refused with the reason,
  // never "not found". Cases they cannot read stay indistinguishable from unknown ones.
  const unwritable = ids.filter((id) => !byId.has(id));
  const readable = (
    viewer && unwritable.length > 0 ? await repo.findCaseResults(ctx.db, { viewer, ids: unwritable, kind: 'READ' }) : []
  ).filter((row) => viewer && isReadableBy(viewer, { published: row.published, ownerOrgId: row.access.ownerOrg }));
  const readableById = new Map(readable.map((row) => [row.id, row]));
  const refusal = (
    id: string,
    code: 'CASE_UPDATE_REFUSED' | 'CASE_UPDATE_NOT_PENDING' | 'NOT_FOUND',
    current: { updateStatus: string | null; ignoreEcUpdate: boolean } | undefined,
  ): CaseUpdateResult => ({
    id,
    updateStatus: (current?.updateStatus as CaseUpdateStatus | null | undefined) ?? null,
    ignoreEcUpdate: current?.ignoreEcUpdate ?? false,
    error: code === 'NOT_FOUND' ? 'Case not found.' : ERROR_CODES[code].message,
    errorCode: code,
  });
  const results: CaseUpdateResult[] = [];
  for (const decision of decisions) {
    const row = byId.get(decision.id);
    if (!row) {
      const seen = readableById.get(decision.id);
      results.push(refusal(decision.id, seen ? 'CASE_UPDATE_REFUSED' : 'NOT_FOUND', seen));
      continue;
    }
    if (!isCaseUpdatePending(row)) {
      results.push(refusal(row.id, 'CASE_UPDATE_NOT_PENDING', row));
      continue;
    }
    const document = row.document;
    let next: Record<string, unknown>;
    if (decision.choice === 'YES') {
      const updateStatus: CaseUpdateStatus = row.errorsCount > 0 ? 'ERRORED' : 'UPDATED';
      next = {
        ...document,
        needsEcUpdate: false,
        ignoreEcUpdate: false,
        outdatedMedications: [],
        outdatedEcNodes: [],
        updateStatus,
      };
    } else {
      next = { ...document, ignoreEcUpdate: true, updateStatus: 'DECLINED' };
    }
    await ctx.db.transaction(async (tx) => {
      await writeDocument(tx, row.id, next, row.access);
      await auditAs(tx, ctx.actor, {
        action: 'case.ec-update',
        targetType: 'case',
        targetId: row.id,
        orgId: row.ownerOrgId,
        ipAddress: ctx.ip ?? null,
        details: { choice: decision.choice, updateStatus: next.updateStatus },
      });
    });
    results.push({
      id: row.id,
      updateStatus: next.updateStatus as CaseUpdateStatus,
      ignoreEcUpdate: next.ignoreEcUpdate === true,
      error: null,
      errorCode: null,
    });
  }
  return results;
}

/** Stores a document and the columns derived from it. */
async function writeDocument(db: Database, id: string, document: Record<string, unknown>, access: CaseAccess) {
  const appLabOrgIds = (await repo.findAppLabOrganisations(db)).map((org) => org.id);
  const derived = deriveCaseColumns(document, access, appLabOrgIds);
  await repo.updateCase(db, id, {
    ...derived,
    access,
    document: { ...document, id, access, published: derived.published, applab: derived.applab },
  });
}

export async function removeCase(ctx: CaseContext, id: string): Promise<boolean> {
  const row = await requireAccessible(ctx, id, 'WRITE');
  await ctx.db.transaction(async (tx) => {
    await repo.deleteCases(tx, [id]);
    await auditAs(tx, ctx.actor, {
      action: 'case.remove',
      targetType: 'case',
      targetId: id,
      // Gone by now: the name comes from the row read before.
      targetName: row.name,
      orgId: row.ownerOrgId,
      ipAddress: ctx.ip ?? null,
      details: { name: row.name },
    });
  });
  return true;
}

/** Fields a client never sets through a document: the access lists and what the server derives or keeps per user. */
const SERVER_FIELDS = [
  'id',
  'access',
  'shares',
  'timed_access',
  'published',
  'applab',
  'isFavorite',
  'lastPlayed',
  'lastAccessed',
  'author',
] as const;

function withoutServerFields(document: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...document };
  for (const key of SERVER_FIELDS) delete copy[key];
  return copy;
}

/** A copy of a case in the caller's organisation, owned by the caller, under a new name. */
export async function duplicateCase(ctx: CaseContext, id: string, newCaseName: string): Promise<CaseConfigurationResult> {
  const row = await requireAccessible(ctx, id, 'WRITE');
  const newCaseId = newId();
  const access = buildCaseAccess({ ownerId: ctx.actor.id, ownerOrgId: ctx.actor.org });
  const createdAt = new Date();
  const document = {
    ...withoutServerFields(row.document),
    name: newCaseName,
    isTemplate: false,
    createdAt: createdAt.toISOString(),
    shares: [],
    timed_access: { users: [], groups: [] },
  };
  await ctx.db.transaction(async (tx) => {
    await insertDocument(tx, newCaseId, document, access, createdAt);
    await auditAs(tx, ctx.actor, {
      action: 'case.duplicate',
      targetType: 'case',
      targetId: newCaseId,
      orgId: ctx.actor.org,
      ipAddress: ctx.ip ?? null,
      details: { from: id },
    });
  });
  return reread(ctx, newCaseId);
}

async function insertDocument(db: Database, id: string, document: Record<string, unknown>, access: CaseAccess, createdAt: Date) {
  const appLabOrgIds = (await repo.findAppLabOrganisations(db)).map((org) => org.id);
  const derived = deriveCaseColumns(document, access, appLabOrgIds);
  await repo.insertCase(db, {
    id,
    ...derived,
    access,
    document: { ...document, id, access, published: derived.published, applab: derived.applab },
    createdAt,
    updatedAt: createdAt,
  });
}

/** Saves the scenario builder's document; its access lists, shares and assignments stay as they are. */
export async function saveCase(ctx: CaseContext, id: string, input: CaseDocumentInput): Promise<CaseConfigurationResult> {
  const row = await requireAccessible(ctx, id, 'WRITE');
  const stored = row.document;
  const document = {
    ...withoutServerFields(input),
    // Whether a case is a template is the provider's call (upsertCaseConfiguration), never the editor's.
    isTemplate: row.isTemplate,
    createdAt: stored.createdAt ?? new Date(row.createdAt).toISOString(),
    shares: stored.shares ?? [],
    timed_access: stored.timed_access ?? { users: [], groups: [] },
  };
  await writeDocument(ctx.db, id, document, row.access);
  return reread(ctx, id);
}

/** The portable document of a case: its content, without ids, access, shares or what is derived from them. */
export function portableDocument(document: Record<string, unknown>): Record<string, unknown> {
  return withoutServerFields(document);
}

/** `dumpCase`: any case, for the provider's staff moving cases between organisations and deployments. */
export async function dumpCase(ctx: CaseContext, id: string): Promise<Record<string, unknown>> {
  requirePermission(ctx.actor, 'cases:copy');
  const [row] = await repo.findStoredCases(ctx.db, [id]);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return portableDocument(row.document);
}

/** The case document for a peer deployment (GET /api/cases/{id}): what the caller may read, portable. */
export async function caseDocumentFor(ctx: CaseContext, id: string): Promise<Record<string, unknown>> {
  const row = await requireAccessible(ctx, id, 'READ');
  return portableDocument(row.document);
}

/** `restoreCase`: a new case in `ownerOrg` from a dump, owned by the caller. */
export async function restoreCase(ctx: CaseContext, dump: CaseDocumentInput, ownerOrg: string): Promise<CaseConfigurationResult> {
  requirePermission(ctx.actor, 'cases:copy');
  const org = await repo.findOrganisation(ctx.db, ownerOrg);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found.' });
  const id = newId();
  const createdAt = dump.createdAt ? new Date(dump.createdAt) : new Date();
  const access = buildCaseAccess({ ownerId: ctx.actor.id, ownerOrgId: ownerOrg });
  const document = {
    ...withoutServerFields(dump),
    createdAt: dump.createdAt ?? createdAt.toISOString(),
    shares: [],
    timed_access: { users: [], groups: [] },
  };
  await ctx.db.transaction(async (tx) => {
    await insertDocument(tx, id, document, access, createdAt);
    await auditAs(tx, ctx.actor, {
      action: 'case.restore',
      targetType: 'case',
      targetId: id,
      orgId: ownerOrg,
      ipAddress: ctx.ip ?? null,
      details: { name: dump.name },
    });
  });
  return readAny(ctx, id);
}

/** A case as the provider's staff see it (any organisation). */
async function readAny(ctx: CaseContext, id: string): Promise<CaseConfigurationResult> {
  const viewer = (await viewerOf(ctx, ctx.actor)) ?? noAccessViewer(ctx.actor);
  const [row] = await repo.findCaseResults(ctx.db, { viewer, ids: [id], kind: 'ANY' });
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return toResult(row, { forStudent: false });
}

/** `bulkRemoveCaseConfigurations`: removes the named cases (the copy tool's clean-up); answers how many went. */
export async function bulkRemoveCases(ctx: CaseContext, ids: readonly string[]): Promise<number> {
  requirePermission(ctx.actor, 'cases:copy');
  return ctx.db.transaction(async (tx) => {
    const removed = await repo.deleteCases(tx, [...new Set(ids)]);
    await auditAs(tx, ctx.actor, {
      action: 'case.bulk-remove',
      targetType: 'case',
      targetName: countedName(removed, 'case'),
      ipAddress: ctx.ip ?? null,
      details: { ids: [...new Set(ids)], removed },
    });
    return removed;
  });
}

type AccessInput = z.output<typeof CaseAccessInputSchema>;

/** `upsertCaseConfiguration`: the provider sets a case's access lists and whether it is a template. */
export async function upsertCase(
  ctx: CaseContext,
  { id, access, isTemplate }: { id: string; access?: AccessInput | null; isTemplate?: boolean | null },
): Promise<CaseConfigurationResult> {
  requirePermission(ctx.actor, 'cases:publish');
  const [row] = await repo.findStoredCases(ctx.db, [id]);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  const nextAccess: CaseAccess = access
    ? {
        owner: access.owner === undefined ? row.access.owner : access.owner,
        ownerOrg: access.ownerOrg === undefined ? row.access.ownerOrg : access.ownerOrg,
        read: access.read,
        write: access.write,
        run: access.run,
        share: access.share,
      }
    : row.access;
  if (nextAccess.ownerOrg && nextAccess.ownerOrg !== row.access.ownerOrg) {
    if (!(await repo.findOrganisation(ctx.db, nextAccess.ownerOrg)))
      throw new AppError('NOT_FOUND', { message: 'Organization not found.' });
  }
  const document = { ...row.document, ...(isTemplate === null || isTemplate === undefined ? {} : { isTemplate }) };
  await ctx.db.transaction(async (tx) => {
    await writeDocument(tx, id, document, nextAccess);
    await auditAs(tx, ctx.actor, {
      action: 'case.upsert',
      targetType: 'case',
      targetId: id,
      orgId: nextAccess.ownerOrg,
      ipAddress: ctx.ip ?? null,
      details: { access: Boolean(access), isTemplate: isTemplate ?? null },
    });
  });
  return readAny(ctx, id);
}

/** The template organisation's cases of a product type, by name (super admins). */
export async function templateCases(ctx: CaseContext, productType: ProductType): Promise<CaseConfigurationResult[]> {
  requirePermission(ctx.actor, 'cases:publish');
  requireTemplateReader(ctx.actor);
  const ids = await repo.findTemplateCaseIds(ctx.db, productType);
  const viewer = (await viewerOf(ctx, ctx.actor)) ?? noAccessViewer(ctx.actor);
  const rows = await repo.findCaseResults(ctx.db, { viewer, ids, kind: 'ANY' });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toResult(row, { forStudent: false })] : [];
  });
}

async function requireTemplate(ctx: CaseContext, id: string) {
  requirePermission(ctx.actor, 'cases:publish');
  const [row] = await repo.findStoredCases(ctx.db, [id]);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  if (!row.isTemplate) throw new AppError('CASE_NOT_TEMPLATE');
  return row;
}

/** Publish adds ALL_ADMINS and ALL_INSTRUCTORS to the read and run groups; unpublish removes them (spec section 4). */
export async function publishTemplate(ctx: CaseContext, id: string, published: boolean): Promise<CaseConfigurationResult> {
  const row = await requireTemplate(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await writeDocument(tx, id, row.document, withPublished(row.access, published));
    await auditAs(tx, ctx.actor, {
      action: published ? 'case.publish' : 'case.unpublish',
      targetType: 'case',
      targetId: id,
      orgId: row.ownerOrgId,
      ipAddress: ctx.ip ?? null,
    });
  });
  return readAny(ctx, id);
}

/** App Lab adds or removes the App Lab organisation of the template's product type in the read and run groups. */
export async function setTemplateAppLab(ctx: CaseContext, id: string, applab: boolean): Promise<CaseConfigurationResult> {
  const row = await requireTemplate(ctx, id);
  const owner = row.ownerOrgId ? await repo.findOrganisation(ctx.db, row.ownerOrgId) : null;
  const productType = owner?.templatesFor ?? owner?.productType;
  const appLab = (await repo.findAppLabOrganisations(ctx.db)).find(
    (org) => isProductType(productType) && org.appLabFor === productType,
  );
  if (!appLab) throw new AppError('CASE_NO_APP_LAB');
  await ctx.db.transaction(async (tx) => {
    await writeDocument(tx, id, row.document, withAppLab(row.access, appLab.id, applab));
    await auditAs(tx, ctx.actor, {
      action: applab ? 'case.app-lab.add' : 'case.app-lab.remove',
      targetType: 'case',
      targetId: id,
      orgId: row.ownerOrgId,
      ipAddress: ctx.ip ?? null,
      details: { appLabOrgId: appLab.id },
    });
  });
  return readAny(ctx, id);
}

// ----- the peer endpoints (decision 0027): another deployment's Cases tool, no user of this one -----

/** Who asked a peer call, as the calling deployment states it (kept in the audit trail, never trusted for access). */
export type PeerCaller = { db: Database; ip?: string | null; requestedBy: string | null; from: string | null };

/** The portable documents of the named cases that exist, in the order asked. */
export async function peerDumpCases(
  caller: PeerCaller,
  ids: readonly string[],
): Promise<Array<{ id: string; document: Record<string, unknown> }>> {
  const unique = [...new Set(ids)];
  const rows = await repo.findStoredCases(caller.db, unique);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = unique.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ id, document: portableDocument(row.document) }] : [];
  });
  await audit(caller.db, {
    actorId: null,
    action: 'case.peer-dump',
    targetType: 'case',
    targetName: countedName(found.length, 'case'),
    ipAddress: caller.ip ?? null,
    details: { ids: unique, found: found.length, requestedBy: caller.requestedBy, from: caller.from },
  });
  return found;
}

/** The portable document of one case, or NOT_FOUND. */
export async function peerCaseDocument(caller: PeerCaller, id: string): Promise<Record<string, unknown>> {
  const [row] = await repo.findStoredCases(caller.db, [id]);
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return portableDocument(row.document);
}

/**
 * A new case in `ownerOrg` from a dump. No user of this deployment asked, so the case has no
 * owner: it belongs to the organisation (its admins reach it through the organisation's groups).
 */
export async function peerRestoreCase(caller: PeerCaller, dump: CaseDocumentInput, ownerOrg: string): Promise<string> {
  const org = await repo.findOrganisation(caller.db, ownerOrg);
  if (!org) throw new AppError('NOT_FOUND', { message: 'Organization not found.' });
  const id = newId();
  const createdAt = dump.createdAt ? new Date(dump.createdAt) : new Date();
  const access = buildCaseAccess({ ownerId: null, ownerOrgId: ownerOrg });
  const document = {
    ...withoutServerFields(dump),
    createdAt: dump.createdAt ?? createdAt.toISOString(),
    shares: [],
    timed_access: { users: [], groups: [] },
  };
  await caller.db.transaction(async (tx) => {
    await insertDocument(tx, id, document, access, createdAt);
    await audit(tx, {
      actorId: null,
      action: 'case.restore',
      targetType: 'case',
      targetId: id,
      orgId: ownerOrg,
      ipAddress: caller.ip ?? null,
      details: { name: dump.name, peer: true, requestedBy: caller.requestedBy, from: caller.from },
    });
  });
  return id;
}

/** Removes the named cases (a failed copy's clean-up); answers how many went. */
export async function peerRemoveCases(caller: PeerCaller, ids: readonly string[]): Promise<number> {
  const unique = [...new Set(ids)];
  return caller.db.transaction(async (tx) => {
    const removed = await repo.deleteCases(tx, unique);
    await audit(tx, {
      actorId: null,
      action: 'case.bulk-remove',
      targetType: 'case',
      targetName: countedName(removed, 'case'),
      ipAddress: caller.ip ?? null,
      details: { ids: unique, removed, peer: true, requestedBy: caller.requestedBy, from: caller.from },
    });
    return removed;
  });
}

/** Cases by name (or exact id) for another deployment's Cases tool, across every organisation. */
export function peerSearchCases(caller: PeerCaller, term: string, limit: number) {
  return repo.searchCasesByName(caller.db, term, limit);
}

/** Organisations by name for another deployment's Cases tool (the target of a copy). */
export function peerSearchOrganisations(caller: PeerCaller, term: string, limit: number) {
  return repo.searchOrganisationsByName(caller.db, term, limit);
}
