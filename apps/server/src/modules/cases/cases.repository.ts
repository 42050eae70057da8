/**
 * SQL of the case store. Access is evaluated in the database (decision 0025): the caller's
 * principals are bound as one array and matched against the readers column (GIN) or the access
 * lists of the case; pages are keyset pages over the sort key and the id. The list's statements
 * bind every value as a parameter (arrays as one text[] each), so that each shape of query (its
 * access kind, sort, filters, search and cursor position) is one SQL text, built once by drizzle
 * and prepared under a name of its own (db/prepared.ts), the same text on both engines.
 */
import { and, asc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import { unionAll } from 'drizzle-orm/pg-core';
import type { CaseAccessKind } from '@patientsim/domain/cases/case.schemas';
import type { CaseSortField, SortDirection } from '@patientsim/domain/cases/case-list';
import type { Database } from '../../db/client.js';
import { user } from '../../db/schema/auth.js';
import {
  type CaseAccess,
  type CaseListDocument,
  caseConfiguration,
  caseFavorite,
  casePlay,
  caseShare,
} from '../../db/schema/cases.js';
import { group } from '../../db/schema/groups.js';

/** Who asks, as the access lists name them (see cases.service.ts `viewerOf`). */
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
const V = {
  userId: sql`${sql.placeholder('userId')}::text`,
  readers: sql`${sql.placeholder('readers')}::text[]`,
  groups: sql`${sql.placeholder('groups')}::text[]`,
  roles: sql`${sql.placeholder('roles')}::text[]`,
  productTypes: sql`${sql.placeholder('productTypes')}::text[]`,
};
const viewerParams = (viewer: CaseViewer) => ({
  userId: viewer.userId,
  readers: viewer.readers,
  groups: viewer.groups,
  roles: viewer.roles,
  productTypes: viewer.productTypes,
});

/** The caller holds `kind` on the case row `c`. */
function hasAccess(kind: CaseAccessKind): SQL {
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

/** The sort keys, each a plain (never null) expression of the row and the caller's play. */
const EPOCH = sql`'1970-01-01T00:00:00Z'::timestamptz`;
export const EPOCH_ISO = '1970-01-01T00:00:00.000Z';
type KeyType = 'text' | 'timestamptz' | 'boolean' | 'integer';
/** `played`: the caller's own play column, null (read as the epoch) for a case they never played or opened. */
type SortKey = { expression: SQL; type: KeyType; played?: SQL };
const SORT_KEYS: Record<CaseSortField, SortKey> = {
  AVATAR_NAME: { expression: sql`coalesce(${c.avatarName}, '')`, type: 'text' },
  START_LOCATION: { expression: sql`coalesce(${c.startLocationName}, '')`, type: 'text' },
  END_LOCATION: { expression: sql`coalesce(${c.endLocationName}, '')`, type: 'text' },
  CREATED_AT: { expression: sql`${c.createdAt}`, type: 'timestamptz' },
  LAST_PLAYED: {
    expression: sql`coalesce(${casePlay.lastPlayed}, ${EPOCH})`,
    type: 'timestamptz',
    played: sql`${casePlay.lastPlayed}`,
  },
  LAST_ACCESSED: {
    expression: sql`coalesce(${casePlay.lastAccessed}, ${EPOCH})`,
    type: 'timestamptz',
    played: sql`${casePlay.lastAccessed}`,
  },
  PUBLISHED: { expression: sql`${c.published}`, type: 'boolean' },
  APPLAB: { expression: sql`${c.applab}`, type: 'boolean' },
  NAME: { expression: sql`${c.name}`, type: 'text' },
};
/** Decision 11: needsEcUpdate, errorsCount, lastAccessed, all descending. */
const DEFAULT_KEYS: SortKey[] = [
  { expression: sql`${c.needsEcUpdate}`, type: 'boolean' },
  { expression: sql`${c.errorsCount}`, type: 'integer' },
  SORT_KEYS.LAST_ACCESSED,
];
/**
 * The values nearly every case has in the keys before the play key of the default order (no
 * pending update, no errors), with the conditions for those rows and for the rest; the rest (the
 * cases that need attention) are few and have an index of their own (`case_attention_idx`). The
 * caller's plays of them are found by the plays' copy of the same condition (`playIsNot`, indexed
 * by `case_play_attention_idx`).
 */
const DEFAULT_COMMON: CommonPrefix = {
  values: [false, 0],
  is: sql`(not ${c.needsEcUpdate} and ${c.errorsCount} = 0)`,
  isNot: sql`(${c.needsEcUpdate} or ${c.errorsCount} <> 0)`,
  playIsNot: sql`${casePlay.caseAttention}`,
};

export type CursorValue = string | number | boolean;
type CommonPrefix = { values: (boolean | number)[]; is: SQL; isNot: SQL; playIsNot: SQL };
export type SortPlan = { keys: SortKey[]; direction: SortDirection; signature: string; common?: CommonPrefix };

export function sortPlan(sortBy: { field: CaseSortField; direction: SortDirection } | null | undefined): SortPlan {
  if (!sortBy) return { keys: DEFAULT_KEYS, direction: 'DESC', signature: 'DEFAULT', common: DEFAULT_COMMON };
  return { keys: [SORT_KEYS[sortBy.field]], direction: sortBy.direction, signature: `${sortBy.field}:${sortBy.direction}` };
}

/** -1, 0 or 1 as the boolean / integer key values `a` sort before, with or after `b` (ascending). */
function comparePrefix(a: readonly (boolean | number)[], b: readonly CursorValue[]): number {
  for (let index = 0; index < a.length; index++) {
    const left = Number(a[index]);
    const right = Number(b[index]);
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}

/** Whether a cursor value fits a key's type (a forged cursor is bad input, never a database error). */
export function fitsKey(plan: SortPlan, values: readonly unknown[]): values is CursorValue[] {
  if (values.length !== plan.keys.length) return false;
  return plan.keys.every((key, index) => {
    const value = values[index];
    switch (key.type) {
      case 'text':
        return typeof value === 'string' && value.length <= 1000 && !value.includes('\u0000');
      case 'timestamptz':
        return (
          typeof value === 'string' &&
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(value) &&
          !Number.isNaN(Date.parse(value))
        );
      case 'boolean':
        return typeof value === 'boolean';
      case 'integer':
        return Number.isSafeInteger(value) && Math.abs(value as number) < 2 ** 31;
    }
    return false;
  });
}

export type CaseFilterSql = {
  madeByMe?: boolean;
  sharedWithMe?: boolean;
  assignedToMe?: boolean;
  favorited?: boolean;
  template?: boolean;
  /** Only the published cases owned by the viewer's groups (a public content reader's library). */
  publicContent?: boolean;
};

/** The filters' conditions; a search binds the placeholder `pattern` (see `searchPattern`). */
function filterConditions(filters: CaseFilterSql, search: boolean): SQL[] {
  const conditions: SQL[] = [];
  if (filters.madeByMe) conditions.push(sql`${c.ownerId} = ${V.userId}`);
  if (filters.sharedWithMe) {
    conditions.push(
      sql`exists (select 1 from ${caseShare} where ${caseShare.caseId} = ${c.id} and (${caseShare.toId} = ${V.userId} or ${caseShare.toId} = any(${V.groups})))`,
    );
  }
  if (filters.assignedToMe) {
    conditions.push(
      sql`((${c.document} -> 'timed_access' -> 'users') ? ${V.userId} or (${c.document} -> 'timed_access' -> 'groups') ?| ${V.groups})`,
    );
  }
  if (filters.favorited) {
    conditions.push(
      sql`exists (select 1 from ${caseFavorite} where ${caseFavorite.caseId} = ${c.id} and ${caseFavorite.userId} = ${V.userId})`,
    );
  }
  if (filters.template) conditions.push(sql`${c.isTemplate}`);
  if (filters.publicContent) conditions.push(sql`(${c.published} and ${c.ownerOrgId} = any(${V.groups}))`);
  if (search) conditions.push(sql`${c.searchableText} like ${sql.placeholder('pattern')}::text`);
  return conditions;
}

/** A search term as the LIKE pattern `filterConditions` binds: lower case, wildcards taken literally. */
const searchPattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The shape of a query's filters, for the name of its statement. */
const filterShape = (filters: CaseFilterSql, search: string | null) =>
  [
    filters.madeByMe,
    filters.sharedWithMe,
    filters.assignedToMe,
    filters.favorited,
    filters.template,
    search !== null,
    filters.publicContent,
  ]
    .map((on) => (on ? '1' : '0'))
    .join('');

/** What the API answers of a case: its columns and the document's listed fields, never the whole document. */
const resultColumns = {
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

/** A short code of `fields`, for the names of the statements that read them. */
function fieldsCode(fields: ResultFields): string {
  const bits = [fields.access, fields.searchableText, ...LIST_DOCUMENT_KEYS.map((key) => fields.documentKeys.includes(key))];
  return bits.reduce((code, on, index) => code + (on ? 2 ** index : 0), 0).toString(36);
}

/** The result columns with what `fields` leaves out read as null (and the document without the keys it leaves out). */
function resultColumnsFor(fields: ResultFields) {
  const omitted = LIST_DOCUMENT_KEYS.filter((key) => !fields.documentKeys.includes(key));
  return {
    ...resultColumns,
    access: (fields.access ? sql`${c.access}` : sql`null`).mapWith(c.access) as SQL<CaseAccess | null>,
    searchableText: (fields.searchableText ? sql`${c.searchableText}` : sql`null`).mapWith(c.searchableText) as SQL<
      string | null
    >,
    // The keys are this module's constants, never input.
    listDocument: (omitted.length === 0
      ? sql`${c.listDocument}`
      : sql`(${c.listDocument} - ${sql.raw(`'{${omitted.join(',')}}'`)}::text[])`
    ).mapWith(c.listDocument) as SQL<CaseListDocument | null>,
  };
}

/** A stored case with its whole document, for the writes that change it. */
const caseColumns = { ...resultColumns, document: c.document, ownerOrgId: c.ownerOrgId };

/** A case as the API answers it to the caller (their play, their favourite, the author's name). */
export type CaseResultRow = Awaited<ReturnType<typeof findCaseResults>>[number];
/** A case row with its document and what the caller sees of it. */
export type CaseListRow = Awaited<ReturnType<typeof findCaseRows>>[number];

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
function perCaseColumns(db: Database) {
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
      authorGivenName: user.givenName,
      authorFamilyName: user.familyName,
      authorName: user.name,
    },
  };
}

/**
 * One page of the caller's cases as the API answers them, each with the values of its sort keys
 * (`limit` rows; one more than the page says there is a next): the page statement (`pageStatement`)
 * joined to the rows of its cases in one statement, with the columns `fields` asks for.
 */
export async function findCaseResultPage(
  db: Database,
  query: PageQuery & { fields: ResultFields },
): Promise<{ row: CaseListedRow; sortValues: CursorValue[] }[]> {
  const { shape, name, params } = pageShapeOf(query);
  const statement = prepared(db, `cpr_${fieldsCode(query.fields)}_${name}`, (statementName) =>
    resultPageStatement(db, shape, query.fields).prepare(statementName),
  );
  const rows = (await statement.execute(params)) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    row: row as CaseListedRow,
    // Read for one row of a page only, the last, whose values make the cursor.
    get sortValues() {
      return query.plan.keys.map((key, index) => cursorValue(key.type, row[`sort${index}`]));
    },
  }));
}

/** A case of a page as `findCaseResultPage` reads it: what `resultColumnsFor` leaves out is null. */
export type CaseListedRow = Omit<CaseResultRow, 'access' | 'searchableText' | 'listDocument'> & {
  access: CaseAccess | null;
  searchableText: string | null;
  listDocument: CaseListDocument | null;
};

/**
 * A page's statement: the page (`pageStatement`) joined to the rows of its cases, with the values
 * of the sort keys: the page's few ids are found first on the indexes, and only their rows are read
 * whole.
 */
function resultPageStatement(db: Database, shape: PageShape, fields: ResultFields) {
  const page = pageStatement(db, shape).as('page');
  const pageColumn = (column: string) => sql`${sql.identifier('page')}.${sql.identifier(column)}`;
  const sortColumns = shape.plan.keys.map((_key, index) => pageColumn(`sort${index}`));
  const { play, columns: callerColumns } = perCaseColumns(db);
  const columns = {
    ...resultColumnsFor(fields),
    ...Object.fromEntries(sortColumns.map((column, index) => [`sort${index}`, sql<unknown>`${column}`.as(`sort${index}`)])),
    ...callerColumns,
  };
  return db
    .select(columns)
    .from(page)
    .innerJoin(c, sql`${c.id} = ${pageColumn('id')}`)
    .leftJoinLateral(play, sql`true`)
    .leftJoin(user, eq(user.id, c.ownerId))
    .orderBy(...ordered([...sortColumns, pageColumn('id')], shape.plan.direction));
}

type PageQuery = {
  viewer: CaseViewer;
  withAccess: CaseAccessKind;
  filters: CaseFilterSql;
  search: string | null;
  plan: SortPlan;
  after: { values: CursorValue[]; id: string } | null;
  limit: number;
};

const rowOf = (parts: SQL[]) => sql.join(parts, sql`, `);
const ordered = (parts: SQL[], direction: SortDirection) =>
  parts.map((part) => (direction === 'ASC' ? sql`${part} asc` : sql`${part} desc`));
/** `(row) > (bound)` ascending, `<` descending. */
const beyond = (row: SQL[], bound: SQL[], direction: SortDirection, orEqual = false) => {
  const op = direction === 'ASC' ? (orEqual ? '>=' : '>') : orEqual ? '<=' : '<';
  return sql`(${rowOf(row)}) ${sql.raw(op)} (${rowOf(bound)})`;
};
/** The cursor's value of key `index` (placeholder `b<index>`) and its id (`afterId`). */
const boundOf = (plan: SortPlan, index: number) =>
  sql`${sql.placeholder(`b${index}`)}::${sql.raw((plan.keys[index] as SortKey).type)}`;
const AFTER_ID = sql`${sql.placeholder('afterId')}::text`;
const ACCESS_CODES: Record<CaseAccessKind, string> = { READ: 'r', WRITE: 'w', RUN: 'x', SHARE: 's' };

/**
 * How one page of the caller's cases with `withAccess` is read (`pageStatement`): the shape of its
 * statement, that statement's name, and its parameters.
 *
 * A sort on the caller's own play (Last Played, Last Opened, and the default order) reads parts
 * and merges them, each part a page in the list's order that an index serves:
 *   - the cases the caller played or opened, from their plays in the order of the play key
 *     (`case_play_*_order_idx`), each joined to its case; in the default order only those with
 *     the common values of the keys before the play key (no update pending, no errors), ...
 *   - ... and, apart, the few played cases that need attention, in full order;
 *   - all cases the caller never played or opened, whose play key is the same epoch for every
 *     row, in the order of the remaining keys and the id.
 */
function pageShapeOf(query: PageQuery): { shape: PageShape; name: string; params: Record<string, unknown> } {
  const { viewer, withAccess, filters, search, plan, after, limit } = query;
  const userKey = plan.keys.findIndex((key) => key.played);
  // Where the cursor stands decides which conditions the statement has, so it is part of its name.
  const cursorInUnplayed = after !== null && userKey >= 0 && after.values[userKey] === EPOCH_ISO;
  const prefixOrder = after && plan.common ? comparePrefix(plan.common.values, after.values) : 0;
  const cursorShape = !after ? 'n' : userKey < 0 ? 'a' : `${cursorInUnplayed ? 'e' : 'p'}${prefixOrder}`;
  const params: Record<string, unknown> = { ...viewerParams(viewer), limit };
  if (search !== null) params.pattern = searchPattern(search);
  if (after) {
    after.values.forEach((value, index) => {
      params[`b${index}`] = value;
    });
    params.afterId = after.id;
  }
  return {
    shape: { withAccess, filters, search: search !== null, plan, after: after !== null, cursorInUnplayed, prefixOrder },
    name: `${ACCESS_CODES[withAccess]}_${plan.signature}_${filterShape(filters, search)}_${cursorShape}`,
    params,
  };
}

type PageShape = {
  withAccess: CaseAccessKind;
  filters: CaseFilterSql;
  search: boolean;
  plan: SortPlan;
  after: boolean;
  cursorInUnplayed: boolean;
  prefixOrder: number;
};

/** The ids of a page (`limit` rows) with the values of their sort keys, `sort0`, `sort1`, … */
function pageStatement(db: Database, shape: PageShape) {
  const { withAccess, filters, search, plan, after, cursorInUnplayed, prefixOrder } = shape;
  const limit = sql.placeholder('limit');
  const base = [hasAccess(withAccess), ...filterConditions(filters, search)];
  const userKey = plan.keys.findIndex((key) => key.played);
  const sortValues = (expressions: SQL[]) =>
    Object.fromEntries(expressions.map((expression, index) => [`sort${index}`, sql<unknown>`${expression}`.as(`sort${index}`)]));
  const keyExpressions = plan.keys.map((key) => key.expression);
  const fullBeyond = after
    ? beyond(
        [...keyExpressions, sql`${c.id}`],
        [...plan.keys.map((_key, index) => boundOf(plan, index)), AFTER_ID],
        plan.direction,
      )
    : undefined;

  if (userKey < 0) {
    return db
      .select({ id: c.id, ...sortValues(keyExpressions) })
      .from(c)
      .where(and(...base, fullBeyond))
      .orderBy(...ordered([...keyExpressions, sql`${c.id}`], plan.direction))
      .limit(limit);
  }
  // The play key is the last key of every plan that has one.
  const played = (plan.keys[userKey] as SortKey).played as SQL;
  const others = plan.keys.slice(0, userKey);
  const otherExpressions = others.map((key) => key.expression);
  const otherBound = others.map((_key, index) => boundOf(plan, index));
  const playedRows = (conditions: (SQL | undefined)[], order: SQL[]) =>
    db
      .select({ id: c.id, ...sortValues(keyExpressions) })
      .from(c)
      .innerJoin(casePlay, eq(casePlay.caseId, c.id))
      .where(and(eq(casePlay.userId, V.userId), sql`${played} is not null`, ...base, ...conditions))
      .orderBy(...order)
      .limit(limit);
  // Played rows whose keys before the play key are all equal, in the order of the play key and
  // the id, which the play index serves; past the cursor only within the cursor's own prefix.
  const byPlay = (prefix: SQL | undefined, order: number) => {
    if (order !== 0 && order < 0 === (plan.direction === 'ASC')) return null;
    const cursor =
      after && order === 0
        ? beyond([played, sql`${casePlay.caseId}`], [boundOf(plan, userKey), AFTER_ID], plan.direction)
        : undefined;
    return playedRows([prefix, cursor], ordered([played, sql`${casePlay.caseId}`], plan.direction));
  };
  const fullOrder = ordered([...keyExpressions, sql`${c.id}`], plan.direction);
  // The few rows outside the common prefix (the cases that need attention) are read from the
  // caller's plays of such cases, which the plays mark themselves (`playIsNot`, with an index of
  // its own). Joining all of the caller's plays to the cases that need attention instead was a third
  // of the first page's statement with 4,000 plays and 808 such cases (decision 0032).
  const playedParts =
    others.length === 0
      ? [byPlay(undefined, 0)]
      : plan.common
        ? [byPlay(plan.common.is, prefixOrder), playedRows([plan.common.playIsNot, plan.common.isNot, fullBeyond], fullOrder)]
        : [playedRows([fullBeyond], fullOrder)];

  const unplayedConditions = [...base];
  if (after) {
    if (cursorInUnplayed) {
      // The cursor is among the unplayed cases: the remaining keys and the id decide.
      unplayedConditions.push(beyond([...otherExpressions, sql`${c.id}`], [...otherBound, AFTER_ID], plan.direction));
    } else if (plan.direction === 'DESC') {
      // Past a played case (descending): every unplayed case with remaining keys up to the cursor's.
      if (others.length > 0) unplayedConditions.push(beyond(otherExpressions, otherBound, 'DESC', true));
    } else {
      // Past a played case (ascending): unplayed cases only under strictly greater remaining keys.
      unplayedConditions.push(others.length > 0 ? beyond(otherExpressions, otherBound, 'ASC') : sql`false`);
    }
  }
  const unplayedPart = db
    .select({ id: c.id, ...sortValues([...otherExpressions, EPOCH]) })
    .from(c)
    .where(
      and(
        ...unplayedConditions,
        sql`not exists (select 1 from ${casePlay} where ${casePlay.caseId} = ${c.id} and ${casePlay.userId} = ${V.userId} and ${played} is not null)`,
      ),
    )
    .orderBy(...ordered([...otherExpressions, sql`${c.id}`], plan.direction))
    .limit(limit);
  const outerOrder = ordered(
    [...plan.keys.map((_key, index) => sql`${sql.identifier(`sort${index}`)}`), sql`${sql.identifier('id')}`],
    plan.direction,
  );
  const [firstPlayed, ...morePlayed] = playedParts.filter((part) => part !== null);
  if (!firstPlayed) return unplayedPart;
  return unionAll(unplayedPart, firstPlayed, ...morePlayed)
    .orderBy(...outerOrder)
    .limit(limit);
}

function cursorValue(type: KeyType, value: unknown): CursorValue {
  if (type === 'timestamptz') return new Date(value as string | Date).toISOString();
  if (type === 'integer') return Number(value);
  if (type === 'boolean') return value === true || value === 't' || value === 'true';
  return String(value);
}

/** How many cases the same query matches, counted up to `limit` (and whether there are more). */
export async function countCases(
  db: Database,
  {
    viewer,
    withAccess,
    filters,
    search,
    limit,
  }: { viewer: CaseViewer; withAccess: CaseAccessKind; filters: CaseFilterSql; search: string | null; limit: number },
): Promise<{ count: number; capped: boolean }> {
  const statement = prepared(db, `cc_${ACCESS_CODES[withAccess]}_${filterShape(filters, search)}`, (name) => {
    const matches = db
      .select({ one: sql`1`.as('one') })
      .from(c)
      .where(and(hasAccess(withAccess), ...filterConditions(filters, search !== null)))
      .limit(sql.placeholder('limit'))
      .as('matches');
    return db.select({ count: sql<number>`count(*)::int` }).from(matches).prepare(name);
  });
  const [row] = await statement.execute({
    ...viewerParams(viewer),
    limit: limit + 1,
    ...(search !== null ? { pattern: searchPattern(search) } : {}),
  });
  const count = Number(row?.count ?? 0);
  return { count: Math.min(count, limit), capped: count > limit };
}

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
