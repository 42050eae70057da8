/**
 * The case store (spec sections 3 and 4; decisions 11, 12 and 17): one service behind the GraphQL
 * resolvers and the REST route. Every function takes the caller as the bearer token resolved them
 * (current role and memberships) and checks the permission table and the case's access lists.
 */
import { hasPermission } from '@patientsim/domain/roles/permissions';
import type { z } from 'zod';
import type {
  CaseAccessInputSchema,
  CaseConfigurationResult,
  CaseDocumentInput,
  CaseUpdateResult,
} from '@patientsim/domain/cases/case.schemas';
import { type CaseUpdateStatus, isCaseUpdatePending } from '@patientsim/domain/cases/case-list';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { isProductType, type ProductType } from '@patientsim/domain/product/product-types';
import type { CaseAccess } from '../../db/schema/cases.js';
import { auditAs, countedName } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { buildCaseAccess, withAppLab, withPublished } from './case-access.js';
import { insertDocument, portableDocument, withoutServerFields, writeDocument } from './case-documents.js';
import { readAny, reread, toResult } from './case-results.js';
import {
  type CaseContext,
  isReadableBy,
  noAccessViewer,
  requireAccessible,
  requirePermission,
  requireTemplateReader,
  viewerOf,
} from './case-viewer.js';
import * as repo from './cases.repository.js';

// The module's one door: the library, the viewer and the peer endpoints live in files of their own.
export { listCases } from './case-list.service.js';
export {
  type PeerCaller,
  peerCaseDocument,
  peerDumpCases,
  peerRemoveCases,
  peerRestoreCase,
  peerSearchCases,
  peerSearchOrganisations,
} from './case-peer.service.js';
export type { CaseContext } from './case-viewer.js';
export { portableDocument };

export async function getCase(ctx: CaseContext, id: string): Promise<CaseConfigurationResult | null> {
  const viewer = await viewerOf(ctx, ctx.actor);
  if (!viewer) return null;
  const [row] = await repo.findCaseResults(ctx.db, { viewer, ids: [id], kind: 'READ' });
  if (!row || !isReadableBy(viewer, { published: row.published, ownerOrgId: row.access.ownerOrg })) return null;
  const result = toResult(row, { forStudent: !hasPermission(ctx.actor.role, 'cases:template-info') });
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
