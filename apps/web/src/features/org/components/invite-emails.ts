import { EmailSchema } from '@patientsim/domain/auth/auth.schemas';
import { BULK_INVITE_MAX } from '@patientsim/domain/common/constants';
import { ALREADY_IN_LIST_MESSAGE, INVALID_EMAIL_MESSAGE } from '@patientsim/domain/invitations/invite-users.schemas';
import type { Role } from '@patientsim/domain/roles/roles';

/** Spec section 5: the file messages of the bulk invite. */
export const FIRST_50_MESSAGE = `Can only load first ${BULK_INVITE_MAX} emails`;
export const NO_VALID_EMAILS_MESSAGE = 'Unable to find valid emails in file';
export const PARSE_FAILED_MESSAGE = 'Problem parsing input file';
/** How long a repeated address stays on screen with 'Already in list' (spec section 9). */
export const DUPLICATE_DISPLAY_MS = 2500;
export const ACCEPTED_FILE_TYPES = '.csv,.xls,.xlsx';

export type InviteRow = {
  key: string;
  email: string;
  role: Role;
  error: typeof INVALID_EMAIL_MESSAGE | typeof ALREADY_IN_LIST_MESSAGE | null;
};

/** The addresses typed or pasted: separated by commas, spaces or new lines. */
export function splitEmails(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** The address as the server stores it (trimmed, lowercased), or null when it is not one. */
export function normaliseEmail(value: string): string | null {
  const parsed = EmailSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

let nextKey = 0;

/**
 * Adds addresses to the list as rows: invalid ones flagged 'Invalid email address', repeats of an
 * address in the list 'Already in list'; no more than 50 rows in all (`isTruncated` says some were left out).
 */
export function addRows(
  rows: readonly InviteRow[],
  emails: readonly string[],
  role: Role = 'STUDENT',
): { rows: InviteRow[]; isTruncated: boolean } {
  const next = [...rows];
  const listed = new Set(rows.filter((row) => row.error === null).map((row) => row.email));
  let isTruncated = false;
  for (const raw of emails) {
    if (next.length >= BULK_INVITE_MAX) {
      isTruncated = true;
      break;
    }
    const email = normaliseEmail(raw);
    nextKey += 1;
    const key = `row-${nextKey}`;
    if (email === null) next.push({ key, email: raw.trim(), role, error: INVALID_EMAIL_MESSAGE });
    else if (listed.has(email)) next.push({ key, email, role, error: ALREADY_IN_LIST_MESSAGE });
    else {
      listed.add(email);
      next.push({ key, email, role, error: null });
    }
  }
  return { rows: next, isTruncated };
}

/** A spreadsheet as rows of cells (text). */
export type Sheet = string[][];

/** A spreadsheet cell as text (numbers and booleans as typed; anything else is not an address). */
function cellText(cell: unknown): string {
  return typeof cell === 'string' || typeof cell === 'number' || typeof cell === 'boolean' ? String(cell) : '';
}

/** Reads a csv, xls or xlsx file into rows of text cells; throws on anything it cannot read. */
export async function readSheet(file: File): Promise<Sheet> {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv')) {
    const { default: Papa } = await import('papaparse');
    const result = Papa.parse<string[]>(await file.text(), { skipEmptyLines: true });
    if (result.errors.length > 0 && result.data.length === 0) throw new Error(PARSE_FAILED_MESSAGE);
    return result.data.map((row) => row.map((cell) => String(cell)));
  }
  if (name.endsWith('.xlsx') || name.endsWith('.xls')) {
    const XLSX = await import('@e965/xlsx');
    const workbook = XLSX.read(await file.arrayBuffer(), { type: 'array' });
    const first = workbook.SheetNames[0];
    const sheet = first ? workbook.Sheets[first] : undefined;
    if (!sheet) throw new Error(PARSE_FAILED_MESSAGE);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false, defval: '' });
    return rows.map((row) => row.map(cellText));
  }
  throw new Error(PARSE_FAILED_MESSAGE);
}

export type SheetColumn = { index: number; samples: string[] };

/** The columns that hold anything, each with up to three sample values to choose it by. */
export function columnsOf(sheet: Sheet): SheetColumn[] {
  const width = Math.max(0, ...sheet.map((row) => row.length));
  const columns: SheetColumn[] = [];
  for (let index = 0; index < width; index += 1) {
    const values = sheet.map((row) => (row[index] ?? '').trim()).filter((value) => value.length > 0);
    if (values.length > 0) columns.push({ index, samples: values.slice(0, 3) });
  }
  return columns;
}

/**
 * The addresses of one column: a first cell that is not an address is taken for a heading; the
 * first 50 only. Null when the column holds no valid address at all.
 */
export function emailsInColumn(sheet: Sheet, index: number): { emails: string[]; isTruncated: boolean } | null {
  const values = sheet.map((row) => (row[index] ?? '').trim()).filter((value) => value.length > 0);
  if (!values.some((value) => normaliseEmail(value) !== null)) return null;
  const body = values[0] !== undefined && normaliseEmail(values[0]) === null ? values.slice(1) : values;
  return { emails: body.slice(0, BULK_INVITE_MAX), isTruncated: body.length > BULK_INVITE_MAX };
}

/** The column to read without asking: the only one, or null when the user must choose. */
export function soleEmailColumn(columns: readonly SheetColumn[]): number | null {
  return columns.length === 1 ? (columns[0]?.index ?? null) : null;
}
