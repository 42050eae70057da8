/**
 * The caller's library (the query `caseConfigurations`): a keyset page in the order asked, with
 * the filters and the search, and the count made on the first page, carried by the cursor.
 */
import { hasPermission } from '@patientsim/domain/roles/permissions';
import type { CaseConfigurationPage, CaseListArgs } from '@patientsim/domain/cases/case.schemas';
import { CASE_COUNT_LIMIT } from '@patientsim/domain/cases/case-list';
import { AppError } from '../../lib/errors.js';
import { findCaseResultPage } from './case-list.repository.js';
import { type ListedCase, toListed } from './case-results.js';
import { type CursorValue, fitsKey, type SortPlan, sortPlan } from './case-sort.js';
import { type CaseContext, requireTemplateReader, viewerOf } from './case-viewer.js';
import { ALL_RESULT_FIELDS, type ResultFields } from './cases.repository.js';

/** Where a page ends, and the list's count made on its first page (later pages do not count again). */
type Cursor = { values: CursorValue[]; id: string; total: number; capped: boolean };

function encodeCursor(signature: string, cursor: Cursor): string {
  return Buffer.from(
    JSON.stringify({ s: signature, v: cursor.values, id: cursor.id, n: cursor.total, ...(cursor.capped ? { c: true } : {}) }),
  ).toString('base64url');
}

function decodeCursor(plan: SortPlan, raw: string): Cursor {
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
  if (!fitsKey(plan, v)) throw invalid();
  return { values: v, id, total: n as number, capped: c === true };
}

/**
 * The caller's library (the query `caseConfigurations`). `counts`: whether the answer needs the
 * list's count (its total, or a next cursor, which carries it); a first page counts in the same
 * statement that reads it, later pages take the count from the cursor.
 */
export async function listCases(
  { db, cache, actor }: CaseContext,
  args: CaseListArgs,
  fields: ResultFields = ALL_RESULT_FIELDS,
  counts = true,
): Promise<Omit<CaseConfigurationPage, 'items'> & { items: ListedCase[] }> {
  const filters = args.filters ?? {};
  if (filters.template) requireTemplateReader(actor);
  const plan = sortPlan(args.sortBy);
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
  const { rows: found, counted: countedNow } = await findCaseResultPage(db, {
    ...query,
    plan,
    after,
    limit: args.first + 1,
    fields,
    countLimit: after || !counts ? null : CASE_COUNT_LIMIT,
  });
  const counted = after ? { count: after.total, capped: after.capped } : (countedNow ?? { count: 0, capped: false });
  const page = found.slice(0, args.first);
  const last = page.at(-1);
  const forStudent = !hasPermission(actor.role, 'cases:template-info');
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
