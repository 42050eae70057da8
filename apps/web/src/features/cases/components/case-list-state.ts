import {
  CASE_COLUMNS,
  type CaseColumnKey,
  type CaseSort,
  type CaseSortField,
  DEFAULT_CASE_COLUMNS,
  MAX_CASE_COLUMNS,
} from '@patientsim/domain/cases/case-list';

/**
 * Sort on a column header (spec section 4): the same column flips its direction, a new column
 * starts ascending.
 */
export function nextSort(current: CaseSort | null, field: CaseSortField): CaseSort {
  if (current?.field === field) return { field, direction: current.direction === 'ASC' ? 'DESC' : 'ASC' };
  return { field, direction: 'ASC' };
}

/**
 * The shown columns after the user ticks or unticks `key`: at most MAX_CASE_COLUMNS (spec
 * section 5); `isRefused` when ticking one more would pass the cap. Columns keep the spec's order.
 */
export function toggleColumn(
  shown: readonly CaseColumnKey[],
  key: CaseColumnKey,
): { shown: CaseColumnKey[]; isRefused: boolean } {
  if (shown.includes(key)) return { shown: shown.filter((k) => k !== key), isRefused: false };
  if (shown.length >= MAX_CASE_COLUMNS) return { shown: [...shown], isRefused: true };
  const next = new Set([...shown, key]);
  return { shown: CASE_COLUMNS.map((c) => c.key).filter((k) => next.has(k)), isRefused: false };
}

/** The localStorage key of the column choice, per product type (spec section 9: a product prefix). */
export function columnsStorageKey(productType: string): string {
  return `patientsim.${productType}.caseList.columns`;
}

const KNOWN_KEYS: ReadonlySet<string> = new Set(CASE_COLUMNS.map((c) => c.key));

/** The stored column choice of a product type, or the default (the first four) when none or unusable. */
export function readColumns(productType: string): CaseColumnKey[] {
  try {
    const raw = window.localStorage.getItem(columnsStorageKey(productType));
    if (!raw) return [...DEFAULT_CASE_COLUMNS];
    const parsed: unknown = JSON.parse(raw);
    if (
      Array.isArray(parsed) &&
      parsed.length <= MAX_CASE_COLUMNS &&
      parsed.every((key): key is CaseColumnKey => typeof key === 'string' && KNOWN_KEYS.has(key))
    ) {
      return CASE_COLUMNS.map((c) => c.key).filter((key) => parsed.includes(key));
    }
  } catch {
    // Storage refused or a value from elsewhere: the default applies.
  }
  return [...DEFAULT_CASE_COLUMNS];
}

export function writeColumns(productType: string, shown: readonly CaseColumnKey[]): void {
  try {
    window.localStorage.setItem(columnsStorageKey(productType), JSON.stringify(shown));
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

/** The default order (decision 11), in words. */
export const DEFAULT_ORDER_TEXT =
  'Default order: cases that need an update first, then cases with errors, then the most recently opened.';
