/**
 * A stored case as the API answers it to the caller: its columns and the listed fields of its
 * document, and the reads that answer one case after a write.
 */
import { hasPermission } from '@patientsim/domain/roles/permissions';
import type { CaseConfigurationResult } from '@patientsim/domain/cases/case.schemas';
import type { CaseUpdateStatus } from '@patientsim/domain/cases/case-list';
import { AppError } from '../../lib/errors.js';
import type { CaseListedRow } from './case-list.repository.js';
import { type CaseContext, noAccessViewer, viewerOf } from './case-viewer.js';
import * as repo from './cases.repository.js';

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
export function toListed(row: CaseListedRow, { forStudent }: { forStudent: boolean }): ListedCase {
  const doc = row.listDocument ?? {};
  const timed = asNullableObject<{ users?: unknown; groups?: unknown }>(doc.timed_access);
  const shares = Array.isArray(doc.shares) ? (doc.shares as CaseConfigurationResult['shares']) : [];
  return {
    id: row.id,
    name: row.name,
    tags: typeof doc.tags === 'string' ? doc.tags : null,
    dispatch: asNullableObject(doc.dispatch),
    ...(row.access ? { access: row.access } : {}),
    author: row.ownerId ? { id: row.ownerId, name: row.authorName || row.ownerId } : null,
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
    ...(row.searchableText !== undefined ? { searchableText: row.searchableText } : {}),
    origin: row.origin,
    published: forStudent ? false : row.published,
    applab: forStudent ? false : row.applab,
    canUpdate: Boolean(row.canUpdate),
  };
}

/** Reads one case again after a write, as the caller sees it. */
export async function reread(ctx: CaseContext, id: string): Promise<CaseConfigurationResult> {
  const viewer = (await viewerOf(ctx, ctx.actor)) ?? noAccessViewer(ctx.actor);
  const [row] = await repo.findCaseResults(ctx.db, { viewer, ids: [id], kind: 'ANY' });
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return toResult(row, { forStudent: !hasPermission(ctx.actor.role, 'cases:template-info') });
}

/** A case as the provider's staff see it (any organisation). */
export async function readAny(ctx: CaseContext, id: string): Promise<CaseConfigurationResult> {
  const viewer = (await viewerOf(ctx, ctx.actor)) ?? noAccessViewer(ctx.actor);
  const [row] = await repo.findCaseResults(ctx.db, { viewer, ids: [id], kind: 'ANY' });
  if (!row) throw new AppError('NOT_FOUND', { message: 'Case not found.' });
  return toResult(row, { forStudent: false });
}
