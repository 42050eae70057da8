import { AUDIT_DEFAULT_DAYS } from '@patientsim/domain/audit/audit.schemas';

/** A day as a date field holds it: `2026-03-31`, or '' for no bound. */
export type LocalDay = string;

const pad = (value: number, length = 2) => String(Math.abs(value)).padStart(length, '0');

/** A date field's value for a local date. */
export function toLocalDay(date: Date): LocalDay {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The instant of a local time, written with this browser's UTC offset on that day (`…T00:00:00.000+02:00`). */
function toOffsetInstant(local: Date): string {
  const offset = -local.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const time = `${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}.${pad(local.getMilliseconds(), 3)}`;
  return `${toLocalDay(local)}T${time}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

function parseLocalDay(day: LocalDay): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

/**
 * The trail's date range as the API takes it: from the start of the first day to the end of the
 * last, in this browser's time zone (so the export's file name carries the days as chosen).
 */
export function toInstantRange(from: LocalDay, to: LocalDay): { from: string | null; to: string | null } {
  const start = parseLocalDay(from);
  const end = parseLocalDay(to);
  end?.setHours(23, 59, 59, 999);
  return { from: start ? toOffsetInstant(start) : null, to: end ? toOffsetInstant(end) : null };
}

/** The range the trail opens on: the last AUDIT_DEFAULT_DAYS days, today included. */
export function defaultDayRange(today: Date = new Date()): { from: LocalDay; to: LocalDay } {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - AUDIT_DEFAULT_DAYS);
  return { from: toLocalDay(start), to: toLocalDay(today) };
}

/** A time in the trail, on one line: `2026-03-31 14:05` in this browser's time zone. */
export function formatEventTime(iso: string): string {
  const date = new Date(iso);
  return `${toLocalDay(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
