import { EmailSchema } from '@patientsim/domain/auth/auth.schemas';
import { BULK_INVITE_MAX } from '@patientsim/domain/common/constants';
import {
  ALREADY_IN_LIST_MESSAGE,
  type AddressStanding,
  INVALID_EMAIL_MESSAGE,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { DEFAULT_INVITED_ROLE, type Role } from '@patientsim/domain/roles/roles';
import type { SheetColumn } from './read-sheet';

/** Spec section 5: the file messages of the bulk invite. */
export const FIRST_50_MESSAGE = `Can only load first ${BULK_INVITE_MAX} emails`;
export const NO_VALID_EMAILS_MESSAGE = 'Unable to find valid emails in file';
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
  role: Role = DEFAULT_INVITED_ROLE,
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

/** The addresses found in a column: the first 50, and whether there were more. */
export type FoundEmails = { emails: string[]; isTruncated: boolean };

/** A column of a file for the user to pick: up to three sample values to choose it by, and its addresses. */
export type FileColumn = { index: number; samples: string[]; found: FoundEmails | null };

/**
 * The addresses of a column's values: a first value that is not an address is taken for a heading;
 * the first 50 only. Null when the column holds no valid address at all.
 */
export function emailsIn(values: readonly string[]): FoundEmails | null {
  if (!values.some((value) => normaliseEmail(value) !== null)) return null;
  const body = values[0] !== undefined && normaliseEmail(values[0]) === null ? values.slice(1) : values;
  return { emails: body.slice(0, BULK_INVITE_MAX), isTruncated: body.length > BULK_INVITE_MAX };
}

/** What the dialog needs of a file's columns (never the whole file). */
export function describeColumns(columns: readonly SheetColumn[]): FileColumn[] {
  return columns.map(({ index, values }) => ({ index, samples: values.slice(0, 3), found: emailsIn(values) }));
}

/** The column to read without asking: the only one, or null when the user must choose. */
export function soleEmailColumn(columns: readonly FileColumn[]): FileColumn | null {
  return columns.length === 1 ? (columns[0] ?? null) : null;
}

/** What the server said of each address of the list (POST invites/org/{id}/addresses). */
export type AddressStandings = ReadonlyMap<string, AddressStanding>;

export function toStandings(addresses: ReadonlyArray<{ email: string; standing: AddressStanding }>): AddressStandings {
  return new Map(addresses.map(({ email, standing }) => [email, standing]));
}

/**
 * How many of `emails` take a new seat: all but the organisation's members (not invited again) and
 * its pending invitees (sent again, keeping the seat they have), as the server counts them. An
 * address the server has not answered for yet counts as new, so the line never promises a seat.
 */
export function countNewSeats(emails: readonly string[], standings: AddressStandings | undefined): number {
  return emails.filter((email) => {
    const standing = standings?.get(email);
    return standing !== 'member' && standing !== 'invited';
  }).length;
}

/** The row notes of the bulk list (decision 0046): why an address takes no new seat. */
export const STANDING_NOTE: Record<Exclude<AddressStanding, 'new'>, string> = {
  member: 'Already a member: takes no new seat',
  invited: 'Invitation pending: sent again, takes no new seat',
};
