/**
 * The case library's pages (the query `caseConfigurations`): keyset pages over the sort keys and
 * the id (`case-sort.ts`), with the caller's access, filters and search, and the count of the same
 * query. Each shape of query (its access kind, sort, filters, search, cursor position and the
 * fields it reads) is one SQL text, prepared under a name of its own.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { CaseAccessKind } from '@patientsim/domain/cases/case.schemas';
import type { Database } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { user } from '../../db/schema/auth.js';
import {
  type CaseAccess,
  type CaseListDocument,
  caseConfiguration as c,
  caseFavorite,
  casePlay,
  caseShare,
} from '../../db/schema/cases.js';
import {
  AFTER_ID,
  beyond,
  boundOf,
  type CursorValue,
  comparePrefix,
  cursorValue,
  EPOCH,
  EPOCH_ISO,
  ordered,
  type SortKey,
  type SortPlan,
} from './case-sort.js';
import {
  ACCESS_CODES,
  type CaseResultRow,
  type CaseViewer,
  hasAccess,
  LIST_DOCUMENT_KEYS,
  perCaseColumns,
  type ResultFields,
  resultColumns,
  V,
  viewerParams,
} from './cases.repository.js';

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

/** A short code of `fields`, for the names of the statements that read them. */
function fieldsCode(fields: ResultFields): string {
  const bits = [fields.access, fields.searchableText, ...LIST_DOCUMENT_KEYS.map((key) => fields.documentKeys.includes(key))];
  return bits.reduce((code, on, index) => code + (on ? 2 ** index : 0), 0).toString(36);
}

/**
 * The result columns without what `fields` leaves out (the access lists and the searchable text are
 * not read at all, and the document without the keys it leaves out): every column is a field the
 * database writes out and the server parses again, for each row of a page.
 */
function resultColumnsFor(fields: ResultFields) {
  const { access, searchableText, listDocument, ...always } = resultColumns;
  const omitted = LIST_DOCUMENT_KEYS.filter((key) => !fields.documentKeys.includes(key));
  return {
    ...always,
    ...(fields.access ? { access } : {}),
    ...(fields.searchableText ? { searchableText } : {}),
    // The keys are this module's constants, never input.
    listDocument:
      omitted.length === 0
        ? listDocument
        : sql<CaseListDocument | null>`(${c.listDocument} - ${sql.raw(`'{${omitted.join(',')}}'`)}::text[])`.mapWith(
            c.listDocument,
          ),
  };
}

/**
 * One page of the caller's cases as the API answers them, each with the values of its sort keys
 * (`limit` rows; one more than the page says there is a next): the page statement (`pageStatement`)
 * joined to the rows of its cases in one statement, with the columns `fields` asks for. With
 * `countLimit`, the same statement counts the cases the query matches, up to that many (and says
 * whether there are more): a first page is one statement, not two.
 */
export async function findCaseResultPage(
  db: Database,
  query: PageQuery & { fields: ResultFields; countLimit: number | null },
): Promise<{
  rows: { row: CaseListedRow; sortValues: CursorValue[] }[];
  counted: { count: number; capped: boolean } | null;
}> {
  const { shape, name, params } = pageShapeOf(query);
  const counts = query.countLimit !== null;
  const statement = prepared(db, `cpr_${fieldsCode(query.fields)}${counts ? 'c' : ''}_${name}`, (statementName) =>
    resultPageStatement(db, shape, query.fields, counts).prepare(statementName),
  );
  if (query.countLimit !== null) params.countLimit = query.countLimit + 1;
  const rows = (await statement.execute(params)) as Array<Record<string, unknown>>;
  let counted: { count: number; capped: boolean } | null = null;
  if (query.countLimit !== null) {
    // No row: nothing matches. Every row carries the same count.
    const count = rows.length === 0 ? 0 : Number(rows[0]?.total ?? 0);
    counted = { count: Math.min(count, query.countLimit), capped: count > query.countLimit };
  }
  return {
    rows: rows.map((row) => ({
      row: row as CaseListedRow,
      // Read for one row of a page only, the last, whose values make the cursor.
      get sortValues() {
        return query.plan.keys.map((key, index) => cursorValue(key.type, row[`sort${index}`]));
      },
    })),
    counted,
  };
}

/** A case of a page as `findCaseResultPage` reads it: what `resultColumnsFor` leaves out is missing. */
export type CaseListedRow = Omit<CaseResultRow, 'access' | 'searchableText' | 'listDocument'> & {
  access?: CaseAccess;
  searchableText?: string;
  listDocument: CaseListDocument | null;
};

/**
 * A page's statement: the page (`pageStatement`) joined to the rows of its cases, with the values
 * of the sort keys: the page's few ids are found first on the indexes, and only their rows are read
 * whole. With `counts`, each row also carries the count of the matching cases up to the placeholder
 * `countLimit` (`matchCount`).
 */
function resultPageStatement(db: Database, shape: PageShape, fields: ResultFields, counts: boolean) {
  const page = pageStatement(db, shape).as('page');
  const pageColumn = (column: string) => sql`${sql.identifier('page')}.${sql.identifier(column)}`;
  const sortColumns = shape.plan.keys.map((_key, index) => pageColumn(`sort${index}`));
  const { play, columns: callerColumns } = perCaseColumns(db);
  const columns = {
    ...resultColumnsFor(fields),
    ...Object.fromEntries(sortColumns.map((column, index) => [`sort${index}`, sql<unknown>`${column}`.as(`sort${index}`)])),
    ...callerColumns,
    ...(counts ? { total: sql<number>`(${matchCount(db, shape)})`.as('total') } : {}),
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

/**
 * How many cases a page's query matches, counted up to the placeholder `countLimit` (a scalar
 * subquery of the page's statement, run once for the statement).
 */
function matchCount(db: Database, { withAccess, filters, search }: PageShape) {
  const matches = db
    .select({ one: sql`1`.as('one') })
    .from(c)
    .where(and(hasAccess(withAccess), ...filterConditions(filters, search)))
    .limit(sql.placeholder('countLimit'))
    .as('matches');
  return db.select({ count: sql<number>`count(*)::int` }).from(matches);
}
