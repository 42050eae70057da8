import { describe, expect, it } from 'vitest';
import { addRows, countNewSeats, splitEmails, toStandings } from './invite-emails';

const addresses = (count: number) => Array.from({ length: count }, (_, i) => `person${i + 1}@example.test`);

describe('pasted addresses', () => {
  it('splits on commas, spaces and new lines', () => {
    expect(splitEmails(' a@x.test, b@x.test\nc@x.test  d@x.test,,\n')).toEqual(['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test']);
  });

  it('marks invalid addresses and repeats (case-insensitively), each in its row', () => {
    const { rows } = addRows([], ['Ann@Example.test', 'not-an-email', 'ann@example.test']);
    expect(rows.map((row) => [row.email, row.role, row.error])).toEqual([
      ['ann@example.test', 'STUDENT', null],
      ['not-an-email', 'STUDENT', 'Invalid email address'],
      ['ann@example.test', 'STUDENT', 'Already in list'],
    ]);
    const again = addRows(rows, ['ANN@example.test']);
    expect(again.rows.at(-1)?.error).toBe('Already in list');
  });

  it('keeps the first 50 and says some were left out', () => {
    const { rows, isTruncated } = addRows([], addresses(60));
    expect(rows).toHaveLength(50);
    expect(isTruncated).toBe(true);
    expect(addRows([], addresses(50)).isTruncated).toBe(false);
  });
});

describe('new seats of a bulk list', () => {
  it('counts every address but the members and pending invitees the server named', () => {
    const standings = toStandings([
      { email: 'member@x.test', standing: 'member' },
      { email: 'invited@x.test', standing: 'invited' },
      { email: 'new@x.test', standing: 'new' },
    ]);
    expect(countNewSeats(['member@x.test', 'invited@x.test', 'new@x.test', 'unanswered@x.test'], standings)).toBe(2);
  });

  it('counts every address as new until the server has answered', () => {
    expect(countNewSeats(['a@x.test', 'b@x.test'], undefined)).toBe(2);
  });
});
