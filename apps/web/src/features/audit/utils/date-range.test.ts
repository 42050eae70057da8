import { describe, expect, it } from 'vitest';
import { defaultDayRange, formatEventTime, toInstantRange, toLocalDay } from './date-range';

// The tests run in the machine's time zone: the offsets expected are what that zone says on each day.
const offsetOf = (date: Date) => {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${String(Math.trunc(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
};

describe('the audit trail date range', () => {
  it('opens on the last 90 days, today included', () => {
    expect(defaultDayRange(new Date(2026, 2, 31, 15, 0))).toEqual({ from: '2025-12-31', to: '2026-03-31' });
  });

  it('sends the start of the first day and the end of the last, with the local offset of each day', () => {
    const range = toInstantRange('2026-01-01', '2026-07-01');
    expect(range).toEqual({
      from: `2026-01-01T00:00:00.000${offsetOf(new Date(2026, 0, 1))}`,
      to: `2026-07-01T23:59:59.999${offsetOf(new Date(2026, 6, 1, 23, 59))}`,
    });
    expect(Date.parse(range.from ?? '')).toBe(new Date(2026, 0, 1).getTime());
    expect(Date.parse(range.to ?? '')).toBe(new Date(2026, 6, 1, 23, 59, 59, 999).getTime());
  });

  it('leaves out an empty end', () => {
    expect(toInstantRange('', '')).toEqual({ from: null, to: null });
    expect(toInstantRange('2026-01-01', '').to).toBeNull();
  });

  it('writes a time on one line, to the minute', () => {
    const time = new Date(2026, 2, 5, 9, 7, 30);
    expect(formatEventTime(time.toISOString())).toBe('2026-03-05 09:07');
    expect(toLocalDay(time)).toBe('2026-03-05');
  });
});
