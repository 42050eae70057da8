/**
 * The case library's orders (decision 11 and the table's sortable columns) as keyset keys: each
 * sort key a plain (never null) expression of the case row and the caller's play, the cursor's
 * values checked against the keys' types, and the comparisons a page past a cursor is read with.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { CaseSortField, SortDirection } from '@patientsim/domain/cases/case-list';
import { caseConfiguration as c, casePlay } from '../../db/schema/cases.js';

/** The play key's value for a case the caller never played or opened. */
export const EPOCH = sql`'1970-01-01T00:00:00Z'::timestamptz`;
export const EPOCH_ISO = '1970-01-01T00:00:00.000Z';
type KeyType = 'text' | 'timestamptz' | 'boolean' | 'integer';
/** `played`: the caller's own play column, null (read as the epoch) for a case they never played or opened. */
export type SortKey = { expression: SQL; type: KeyType; played?: SQL };
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
export function comparePrefix(a: readonly (boolean | number)[], b: readonly CursorValue[]): number {
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

const rowOf = (parts: SQL[]) => sql.join(parts, sql`, `);
export const ordered = (parts: SQL[], direction: SortDirection) =>
  parts.map((part) => (direction === 'ASC' ? sql`${part} asc` : sql`${part} desc`));
/** `(row) > (bound)` ascending, `<` descending. */
export const beyond = (row: SQL[], bound: SQL[], direction: SortDirection, orEqual = false) => {
  const op = direction === 'ASC' ? (orEqual ? '>=' : '>') : orEqual ? '<=' : '<';
  return sql`(${rowOf(row)}) ${sql.raw(op)} (${rowOf(bound)})`;
};
/** The cursor's value of key `index` (placeholder `b<index>`) and its id (`afterId`). */
export const boundOf = (plan: SortPlan, index: number) =>
  sql`${sql.placeholder(`b${index}`)}::${sql.raw((plan.keys[index] as SortKey).type)}`;
export const AFTER_ID = sql`${sql.placeholder('afterId')}::text`;
/** A sort key's value as a cursor holds it. */
export function cursorValue(type: KeyType, value: unknown): CursorValue {
  if (type === 'timestamptz') return new Date(value as string | Date).toISOString();
  if (type === 'integer') return Number(value);
  if (type === 'boolean') return value === true || value === 't' || value === 'true';
  return String(value);
}
