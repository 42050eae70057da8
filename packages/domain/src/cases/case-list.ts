/**
 * The scenario library's shared vocabulary (spec sections 2, 4, 5 and 9; decisions 11 and 12):
 * its columns in order with their sort keys and widths, the filters, the update statuses and
 * the limits. The server's GraphQL schema and the web app's case list both read these.
 */

/** Columns of the case list, in the spec's order (section 2). */
export const CASE_COLUMNS = [
  { key: 'patient', label: 'Patient', sortKey: 'AVATAR_NAME', width: 0.7 },
  { key: 'scene1', label: 'Scene 1', sortKey: 'START_LOCATION', width: 1 },
  { key: 'origin', label: 'Origin', sortKey: null, width: 1 },
  { key: 'createdAt', label: 'Creation Date', sortKey: 'CREATED_AT', width: 1 },
  { key: 'author', label: 'Author', sortKey: null, width: 1 },
  { key: 'scene2', label: 'Scene 2', sortKey: 'END_LOCATION', width: 1 },
  { key: 'lastPlayed', label: 'Last Played', sortKey: 'LAST_PLAYED', width: 1 },
  { key: 'lastAccessed', label: 'Last Opened', sortKey: 'LAST_ACCESSED', width: 1 },
  { key: 'published', label: 'Published', sortKey: 'PUBLISHED', width: 0.5 },
  { key: 'applab', label: 'AppLab', sortKey: 'APPLAB', width: 0.5 },
] as const;
export type CaseColumn = (typeof CASE_COLUMNS)[number];
export type CaseColumnKey = CaseColumn['key'];

/** Sort keys the case query accepts; NAME orders the template lists (spec section 9). */
export const CASE_SORT_FIELDS = [
  'AVATAR_NAME',
  'START_LOCATION',
  'CREATED_AT',
  'END_LOCATION',
  'LAST_PLAYED',
  'LAST_ACCESSED',
  'PUBLISHED',
  'APPLAB',
  'NAME',
] as const;
export type CaseSortField = (typeof CASE_SORT_FIELDS)[number];
export type SortDirection = 'ASC' | 'DESC';
export type CaseSort = { field: CaseSortField; direction: SortDirection };

/** At most this many columns show at once (spec section 5); the default is the first four. */
export const MAX_CASE_COLUMNS = 4;
export const DEFAULT_CASE_COLUMNS: readonly CaseColumnKey[] = CASE_COLUMNS.slice(0, MAX_CASE_COLUMNS).map((c) => c.key);
export const TOO_MANY_COLUMNS_TEXT = 'You can only have 4 columns displayed. Please remove a column first';

/** Filters of the case list (spec section 2), each a boolean of the query's `filters` input. */
export const CASE_FILTERS = [
  { key: 'madeByMe', label: 'Made by me' },
  { key: 'sharedWithMe', label: 'Shared with me' },
  { key: 'assignedToMe', label: 'Assigned to me' },
  { key: 'favorited', label: 'Favorited' },
  { key: 'template', label: 'template' },
] as const;
export type CaseFilterKey = (typeof CASE_FILTERS)[number]['key'];
export type CaseFilters = Partial<Record<CaseFilterKey, boolean>>;

/** Page size of the case query, and its bound. */
export const CASE_PAGE_SIZE = 50;
export const CASE_PAGE_SIZE_MAX = 100;
/** Infinite scroll loads the next page this many pixels before the end (spec section 9). */
export const CASE_SCROLL_DISTANCE = 200;
/** The compact preview cuts the text at this many words (spec section 9). */
export const CASE_PREVIEW_WORDS = 20;
/**
 * The list counts its cases up to this many; past it the count says only that there are more
 * (an exact count of a library of 100,000 costs more than the page itself).
 */
export const CASE_COUNT_LIMIT = 1000;

/** The line above the list: how many cases are shown of how many there are. */
export function caseCountText(shown: number, total: number, capped: boolean): string {
  const number = new Intl.NumberFormat('en-US');
  const of = capped ? `${number.format(Math.max(total, shown))}+` : number.format(total);
  return `Showing ${number.format(shown)} of ${of} ${total === 1 && !capped ? 'scenario' : 'scenarios'}`;
}

/** Search terms: at most this long; an empty term searches nothing. */
export const CASE_SEARCH_MAX = 200;

/** What the user chose for a case with a pending effect-chain update, and what it became. */
export type CaseUpdateChoice = 'YES' | 'NO';
export const CASE_UPDATE_STATUSES = ['UPDATED', 'DECLINED', 'ERRORED'] as const;
export type CaseUpdateStatus = (typeof CASE_UPDATE_STATUSES)[number];

/**
 * Whether a case still offers the Y/N choice of its effect-chain update (spec sections 2 and 4):
 * it needs an update and the user has not declined it (a declined update is made in the
 * Medications or Case Logic panel, not in the list). Accepting an update clears `needsEcUpdate`, so
 * a case that needs one again after an earlier update offers the choice again. The list shows the
 * choice by this rule and the server accepts decisions by the same rule.
 */
export function isCaseUpdatePending(c: { needsEcUpdate: boolean; ignoreEcUpdate: boolean }): boolean {
  return c.needsEcUpdate && !c.ignoreEcUpdate;
}

/**
 * Who can update a case, for a reader who may not: effect-chain decisions need write access, which
 * the author holds and can grant (the Update column's tooltip).
 */
export function caseUpdaterText(authorName: string | null | undefined): string {
  return authorName
    ? `Only ${authorName} (the author), or someone they gave edit access, can update this case.`
    : "Only the case's author, or someone they gave edit access, can update this case.";
}

/** The label of a case's update state (spec section 4, decision 12). */
export function caseUpdateLabel(c: {
  updateStatus?: CaseUpdateStatus | null;
  ignoreEcUpdate?: boolean;
}): 'Updated' | 'Error' | 'Declined' | 'No Action' {
  if (c.updateStatus === 'UPDATED') return 'Updated';
  if (c.updateStatus === 'ERRORED') return 'Error';
  if (c.ignoreEcUpdate || c.updateStatus === 'DECLINED') return 'Declined';
  return 'No Action';
}

export const CASE_TEXTS = {
  loadError: 'Error when loading cases',
  unknownError: 'Unknown error',
  needsUpdate: 'Case information needs updated',
  confirmSelection: 'Confirm selection(s)?',
  confirmSelectionBody: 'Updating is permanent. Declined updates can be updated in Medications panel or Case Logic panel.',
  confirm: 'Confirm',
  noTags: 'No tags',
  noOrganisation: 'User does not belong to an organization',
  studentRefused: 'Student cannot retrieve this info',
  copied: 'Cases successfully copied',
  sourceFetchError: 'Error when fetching case in source environment',
  targetFetchError: 'Error when fetching case in target environment',
  notEqualAfterCopy: 'Case data is not the same after copy. Please take a screenshot of the diff below and contact support.',
  different: 'Case data is different',
  same: 'No diff between those 2 cases. Their data are the same.',
} as const;

/** Maximum infusion bags by product type (spec section 9). */
export function maximumBags(productType: string): number {
  return productType === 'NURSING' || productType === 'MILITARY' ? 10 : 3;
}

/** Dates of the case list: YYYY-MM-DD (spec section 9), in UTC. */
export function caseDate(value: string | null | undefined): string {
  return value ? value.slice(0, 10) : '';
}
