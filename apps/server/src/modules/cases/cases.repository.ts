/**
 * SQL of the case store. Access is evaluated in the database (decision 0025): the caller's
 * principals are bound as one array and matched against the readers column (GIN) or the access
 * lists of the case. The statements bind every value as a parameter (arrays as one text[] each),
 * so that each shape of query is one SQL text, built once by drizzle and prepared under a name of
 * its own (db/prepared.ts), the same text on both engines. The library's pages are in
 * `case-list.repository.ts`, their order and cursors in `case-sort.ts`.
 */
import { and, asc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import type { CaseAccessKind } from '@patientsim/domain/cases/case.schemas';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import { caseConfiguration, caseFavorite, casePlay } from '../../db/schema/cases.js';
import { group } from '../../db/schema/groups.js';

/** Who asks, as the access lists name them (see case-viewer.ts `viewerOf`). */
export type CaseViewer = {
  userId: string;
  /** Everything the readers column may hold for this caller: the user, groups, pseudo groups, role:…, productType:… */
  readers: string[];
  /** Real and pseudo groups (not the user, roles or product types). */
  groups: string[];
  /** Roles as the access lists name them. */
  roles: string[];
  productTypes: string[];
  /**
   * A person with no organisation: they read the published scenarios of the organisations in
   * `groups` (their product type's public content organisation) and nothing else.
   */
  isPublicContentReader?: boolean;
};

const c = caseConfiguration;

/** The caller's values as placeholders of a named statement; `viewerParams` gives their values. */
export const V = {
  userId: sql`${sql.placeholder('userId')}::text`,
  readers: sql`${sql.placeholder('readers')}::text[]`,
  groups: sql`${sql.placeholder('groups')}::text[]`,
  roles: sql`${sql.placeholder('roles')}::text[]`,
  productTypes: sql`${sql.placeholder('productTypes')}::text[]`,
};
export const viewerParams = (viewer: CaseViewer) => ({
  userId: viewer.userId,
  readers: viewer.readers,
  groups: viewer.groups,
  roles: viewer.roles,
  productTypes: viewer.productTypes,
});

/** The caller holds `kind` on the case row `c`. */
export function hasAccess(kind: CaseAccessKind): SQL {
  const owner = sql`${c.ownerId} = ${V.userId}`;
  if (kind === 'READ') {
    // A share grants read through the read lists (sharing writes its recipient there), so that the
    // whole condition is one indexed array overlap.
    return sql`(${owner} or ${c.readers} && ${V.readers})`;
  }
  const list = kind.toLowerCase();
  const field = (name: string) => sql`(${c.access} -> ${sql.raw(`'${list}'`)} -> ${sql.raw(`'${name}'`)})`;
  return sql`(${owner} or ${field('groups')} ?| ${V.groups} or ${field('users')} ? ${V.userId} or ${field('roles')} ?| ${V.roles} or ${field('productType')} ?| ${V.productTypes})`;
}

/** What the API answers of a case: its columns and the document's listed fields, never the whole document. */
export const resultColumns = {
  id: c.id,
  access: c.access,
  name: c.name,
  ownerId: c.ownerId,
  origin: c.origin,
  isTemplate: c.isTemplate,
  published: c.published,
  applab: c.applab,
  needsEcUpdate: c.needsEcUpdate,
  ignoreEcUpdate: c.ignoreEcUpdate,
  updateStatus: c.updateStatus,
  errorsCount: c.errorsCount,
  warningsCount: c.warningsCount,
  searchableText: c.searchableText,
  createdAt: c.createdAt,
  listDocument: c.listDocument,
  // Every statement that reads these columns binds the caller (`viewerParams`), so whether they may
  // update each case is answered with the case, not by a query per case.
  canUpdate: sql<boolean>`${hasAccess('WRITE')}`.mapWith(Boolean),
};
/** The keys of a case's list document (`db/schema/cases.ts`), each a field of the API's case of the same name. */
export const LIST_DOCUMENT_KEYS = [
  'tags',
  'dispatch',
  '_avatar',
  '_startLocation',
  '_endLocation',
  'shares',
  'timed_access',
  'outdatedMedications',
  'outdatedEcNodes',
] as const;
export type ListDocumentKey = (typeof LIST_DOCUMENT_KEYS)[number];

/**
 * What of a case a page reads besides the columns every answer needs: the access lists, the
 * searchable text and the list document's keys, each only when the query asks for it. They are
 * most of a row's bytes (about 460 of access lists and 730 of list document against 100 of
 * searchable text), which the database writes out as text and the server parses again.
 */
export type ResultFields = { access: boolean; searchableText: boolean; documentKeys: readonly ListDocumentKey[] };
export const ALL_RESULT_FIELDS: ResultFields = { access: true, searchableText: true, documentKeys: LIST_DOCUMENT_KEYS };

/** A stored case with its whole document, for the writes that change it. */
const caseColumns = { ...resultColumns, document: c.document, ownerOrgId: c.ownerOrgId };

/** A case as the API answers it to the caller (their play, their favourite, the author's name). */
export type CaseResultRow = Awaited<ReturnType<typeof findCaseResults>>[number];

/**
 * Cases with the caller's play and favourite, each probed by its key per case (a lateral join and
 * a scalar subquery): joined plainly, the planner hashes all of the caller's plays and favourites
 * (thousands for an active instructor) to find those of one page.
 */
function selectCases<Columns extends typeof resultColumns>(db: Database, columns: Columns) {
  const { play, columns: callerColumns } = perCaseColumns(db);
  return db
    .select({ ...columns, ...callerColumns })
    .from(c)
    .leftJoinLateral(play, sql`true`)
    .leftJoin(user, eq(user.id, c.ownerId));
}

/**
 * The caller's play (a lateral subquery to join), favourite and the author's name of the case row
 * `c`, as the columns of an answer.
 */
export function perCaseColumns(db: Database) {
  const play = db
    .select({ lastPlayed: casePlay.lastPlayed, lastAccessed: casePlay.lastAccessed })
    .from(casePlay)
    .where(and(eq(casePlay.caseId, c.id), eq(casePlay.userId, V.userId)))
    .limit(1)
    .as('play');
  return {
    play,
    columns: {
      lastPlayed: play.lastPlayed,
      lastAccessed: play.lastAccessed,
      isFavorite: sql<boolean>`((select true from ${caseFavorite} where ${caseFavorite.caseId} = ${c.id} and ${caseFavorite.userId} = ${V.userId} limit 1) is not null)`,
      // Null only when the author's account is gone (the case's owner is then null too).
      authorName: user.name,
    },
  };
}

export const ACCESS_CODES: Record<CaseAccessKind, string> = { READ: 'r', WRITE: 'w', RUN: 'x', SHARE: 's' };

const byIds = (kind: CaseAccessKind | 'ANY') =>
  and(sql`${c.id} = any(${sql.placeholder('ids')}::text[])`, kind === 'ANY' ? undefined : hasAccess(kind));

/** Cases by id with their documents, those the caller holds `kind` on only (or any, without a viewer check). */
export function findCaseRows(
  db: Database,
  { viewer, ids, kind }: { viewer: CaseViewer; ids: readonly string[]; kind: CaseAccessKind | 'ANY' },
) {
  const statement = prepared(db, `cr_${kind === 'ANY' ? 'any' : ACCESS_CODES[kind]}`, (name) =>
    selectCases(db, caseColumns).where(byIds(kind)).prepare(name),
  );
  if (ids.length === 0) return Promise.resolve([] as Awaited<ReturnType<typeof statement.execute>>);
  return statement.execute({ ...viewerParams(viewer), ids: [...ids] });
}

/** Cases by id as the API answers them (no whole documents), those the caller holds `kind` on only (or any). */
export function findCaseResults(
  db: Database,
  { viewer, ids, kind }: { viewer: CaseViewer; ids: readonly string[]; kind: CaseAccessKind | 'ANY' },
) {
  const statement = prepared(db, `cl_${kind === 'ANY' ? 'any' : ACCESS_CODES[kind]}`, (name) =>
    selectCases(db, resultColumns).where(byIds(kind)).prepare(name),
  );
  if (ids.length === 0) return Promise.resolve([] as Awaited<ReturnType<typeof statement.execute>>);
  return statement.execute({ ...viewerParams(viewer), ids: [...ids] });
}

/** Whether the cases exist at all (to tell 404 from 403 is never needed: both are 404). */
export function findStoredCases(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(c)
    .where(inArray(c.id, [...ids]));
}

/** The most cases one template library lists. */
export const TEMPLATE_CASES_MAX = 1000;

/** The template organisation's cases of a product type, by name. */
export function findTemplateCaseIds(db: Database, productType: string) {
  return db
    .select({ id: c.id })
    .from(c)
    .innerJoin(group, eq(group.id, c.ownerOrgId))
    .where(and(eq(group.templatesFor, productType), isNull(group.parentId)))
    .orderBy(asc(c.name), asc(c.id))
    .limit(TEMPLATE_CASES_MAX)
    .then((rows) => rows.map((r) => r.id));
}

/** The App Lab organisations: all of them, and the one of a product type. */
export function findAppLabOrganisations(db: Database) {
  return db
    .select({ id: group.id, appLabFor: group.appLabFor })
    .from(group)
    .where(and(isNotNull(group.appLabFor), isNull(group.parentId)));
}

/** The active public content organisation of a product type (spec section 1), if there is one. */
export async function findPublicContentOrganisationId(db: Database, productType: string): Promise<string | null> {
  const [row] = await db
    .select({ id: group.id })
    .from(group)
    .where(and(eq(group.contentFor, productType), isNull(group.parentId), eq(group.inactive, false)))
    .orderBy(asc(group.createdAt), asc(group.id))
    .limit(1);
  return row?.id ?? null;
}

/** An organisation (top-level group) by id. */
export async function findOrganisation(db: Database, id: string) {
  const [row] = await db
    .select({ id: group.id, productType: group.productType, templatesFor: group.templatesFor, inactive: group.inactive })
    .from(group)
    .where(and(eq(group.id, id), isNull(group.parentId)))
    .limit(1);
  return row ?? null;
}

export function insertCase(db: Database, values: typeof caseConfiguration.$inferInsert) {
  return db.insert(c).values(values);
}

export function updateCase(db: Database, id: string, values: Partial<typeof caseConfiguration.$inferInsert>) {
  return db
    .update(c)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(c.id, id));
}

export async function deleteCases(db: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .delete(c)
    .where(inArray(c.id, [...ids]))
    .returning({ id: c.id });
  return rows.length;
}

export async function addFavorite(db: Database, caseId: string, userId: string) {
  await db.insert(caseFavorite).values({ caseId, userId }).onConflictDoNothing();
}

export async function removeFavorite(db: Database, caseId: string, userId: string) {
  await db.delete(caseFavorite).where(and(eq(caseFavorite.caseId, caseId), eq(caseFavorite.userId, userId)));
}

/** `%term%` for LIKE, the term's own wildcards taken literally. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Cases whose name contains `term` (any case), or whose id is `term`, by name, with the name of the
 * organisation that owns them (the Cases tool, across every organisation). The searchable text holds
 * the lower-case name, so its trigram index narrows the rows first.
 */
export function searchCasesByName(db: Database, term: string, limit: number) {
  const pattern = containing(term);
  return db
    .select({ id: c.id, name: c.name, organisation: group.name })
    .from(c)
    .leftJoin(group, eq(group.id, c.ownerOrgId))
    .where(sql`(${c.id} = ${term} or (${c.searchableText} like ${pattern.toLowerCase()} and ${c.name} ilike ${pattern}))`)
    .orderBy(asc(c.name), asc(c.id))
    .limit(limit);
}

/** Organisations (top-level groups) whose name contains `term` (any case), by name. */
export function searchOrganisationsByName(db: Database, term: string, limit: number) {
  return db
    .select({ id: group.id, name: group.name })
    .from(group)
    .where(and(isNull(group.parentId), sql`${group.name} ilike ${containing(term)}`))
    .orderBy(asc(group.name), asc(group.id))
    .limit(limit);
}
