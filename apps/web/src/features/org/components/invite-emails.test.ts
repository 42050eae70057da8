import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import {
  addRows,
  columnsOf,
  emailsInColumn,
  PARSE_FAILED_MESSAGE,
  readSheet,
  soleEmailColumn,
  splitEmails,
} from './invite-emails';

function xlsxFile(rows: unknown[][], name = 'people.xlsx') {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  const bytes = XLSX.write(workbook, { type: 'array', bookType: name.endsWith('.xls') ? 'biff8' : 'xlsx' }) as ArrayBuffer;
  return new File([bytes], name);
}

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

describe('uploaded files', () => {
  it('reads a one-column csv straight away, skipping its heading', async () => {
    const sheet = await readSheet(new File(['Email\nann@example.test\nbob@example.test\n'], 'list.csv'));
    const columns = columnsOf(sheet);
    expect(soleEmailColumn(columns)).toBe(0);
    expect(emailsInColumn(sheet, 0)).toEqual({ emails: ['ann@example.test', 'bob@example.test'], isTruncated: false });
  });

  it('offers each column of a several-column file with sample values', async () => {
    const file = xlsxFile([
      ['Name', 'Email', 'Cohort'],
      ['Ann', 'ann@example.test', 'A'],
      ['Bob', 'bob@example.test', 'B'],
      ['Cy', 'cy@example.test', 'B'],
      ['Di', 'di@example.test', 'A'],
    ]);
    const sheet = await readSheet(file);
    const columns = columnsOf(sheet);
    expect(soleEmailColumn(columns)).toBeNull();
    expect(columns).toEqual([
      { index: 0, samples: ['Name', 'Ann', 'Bob'] },
      { index: 1, samples: ['Email', 'ann@example.test', 'bob@example.test'] },
      { index: 2, samples: ['Cohort', 'A', 'B'] },
    ]);
    expect(emailsInColumn(sheet, 1)?.emails).toEqual([
      'ann@example.test',
      'bob@example.test',
      'cy@example.test',
      'di@example.test',
    ]);
    expect(emailsInColumn(sheet, 0)).toBeNull();
  });

  it('reads an xls file too, and only its first 50 addresses', async () => {
    const sheet = await readSheet(
      xlsxFile(
        addresses(70).map((email) => [email]),
        'old.xls',
      ),
    );
    expect(emailsInColumn(sheet, 0)).toEqual({ emails: addresses(50), isTruncated: true });
  });

  it('refuses files it cannot read', async () => {
    await expect(readSheet(new File(['hello'], 'notes.txt'))).rejects.toThrow(PARSE_FAILED_MESSAGE);
    await expect(readSheet(new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])], 'broken.xlsx'))).rejects.toThrow();
  });
});
