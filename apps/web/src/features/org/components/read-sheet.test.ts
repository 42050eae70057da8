import * as XLSX from '@e965/xlsx';
import { describe, expect, it, vi } from 'vitest';
import { buildXlsx, buildXlsxBomb, buildXlsxOfRows } from '../../../testing/spreadsheets';
import { describeColumns, soleEmailColumn } from './invite-emails';
import {
  CONTENT_TOO_LARGE_MESSAGE,
  FILE_MAX_BYTES,
  FILE_MAX_COLUMNS,
  FILE_MAX_ROWS,
  FILE_TOO_LARGE_MESSAGE,
  PARSE_FAILED_MESSAGE,
  type ReadProgress,
  readSheet,
  SheetError,
  TOO_MANY_COLUMNS_MESSAGE,
  TOO_MANY_ROWS_MESSAGE,
  UNPACKED_MAX_BYTES,
} from './read-sheet';

vi.mock('@e965/xlsx', async (importOriginal) => {
  const original = await importOriginal<typeof XLSX>();
  return { ...original, read: vi.fn(original.read) };
});

function xlsxFile(rows: unknown[][], name = 'people.xlsx') {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  const bytes = XLSX.write(workbook, { type: 'array', bookType: name.endsWith('.xls') ? 'biff8' : 'xlsx' }) as ArrayBuffer;
  return new File([bytes], name);
}

const addresses = (count: number) => Array.from({ length: count }, (_, i) => `person${i + 1}@example.test`);
const MB = 1024 * 1024;

/** What reading `file` is refused with (its message), or null when it is read. */
async function refusalOf(file: File): Promise<string | null> {
  try {
    await readSheet(file);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(SheetError);
    return (error as Error).message;
  }
}

describe('readSheet', () => {
  it('reads a one-column csv straight away, skipping its heading', async () => {
    const columns = describeColumns(await readSheet(new File(['Email\nann@example.test\nbob@example.test\n'], 'list.csv')));
    expect(soleEmailColumn(columns)).toEqual({
      index: 0,
      samples: ['Email', 'ann@example.test', 'bob@example.test'],
      found: { emails: ['ann@example.test', 'bob@example.test'], isTruncated: false },
    });
  });

  it('offers each column of a several-column file with sample values', async () => {
    const file = xlsxFile([
      ['Name', 'Email', 'Cohort'],
      ['Ann', 'ann@example.test', 'A'],
      ['Bob', 'bob@example.test', 'B'],
      ['Cy', 'cy@example.test', 'B'],
      ['Di', 'di@example.test', 'A'],
    ]);
    const columns = describeColumns(await readSheet(file));
    expect(soleEmailColumn(columns)).toBeNull();
    expect(columns.map(({ index, samples }) => ({ index, samples }))).toEqual([
      { index: 0, samples: ['Name', 'Ann', 'Bob'] },
      { index: 1, samples: ['Email', 'ann@example.test', 'bob@example.test'] },
      { index: 2, samples: ['Cohort', 'A', 'B'] },
    ]);
    expect(columns[1]?.found?.emails).toEqual(['ann@example.test', 'bob@example.test', 'cy@example.test', 'di@example.test']);
    expect(columns[0]?.found).toBeNull();
  });

  it('reads an xls file too, and only its first 50 addresses', async () => {
    const columns = await readSheet(
      xlsxFile(
        addresses(70).map((email) => [email]),
        'old.xls',
      ),
    );
    expect(describeColumns(columns)[0]?.found).toEqual({ emails: addresses(50), isTruncated: true });
  });

  it('refuses files it cannot read', async () => {
    expect(await refusalOf(new File(['hello'], 'notes.txt'))).toBe(PARSE_FAILED_MESSAGE);
    expect(await refusalOf(new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])], 'broken.xlsx'))).toBe(
      PARSE_FAILED_MESSAGE,
    );
    // A zip whose central directory is damaged.
    const damaged = buildXlsx('<row><c t="inlineStr"><is><t>ann@example.test</t></is></c></row>');
    damaged.fill(0, damaged.length - 80, damaged.length - 22);
    expect(await refusalOf(new File([damaged], 'damaged.xlsx'))).toBe(PARSE_FAILED_MESSAGE);
  });

  it('refuses a file above 5 MB without reading it', async () => {
    for (const name of ['big.csv', 'big.xlsx', 'big.xls']) {
      const file = new File([new Uint8Array(FILE_MAX_BYTES + 1)], name);
      const text = vi.spyOn(file, 'text');
      const arrayBuffer = vi.spyOn(file, 'arrayBuffer');
      expect(await refusalOf(file)).toBe(FILE_TOO_LARGE_MESSAGE);
      expect(text).not.toHaveBeenCalled();
      expect(arrayBuffer).not.toHaveBeenCalled();
    }
    expect(FILE_TOO_LARGE_MESSAGE).toBe('Can only load files up to 5 MB');
  });

  it('reads 10,000 rows and refuses a file with more', async () => {
    const csv = (count: number) => new File([`${addresses(count).join('\n')}\n\n`], 'many.csv');
    expect((await readSheet(csv(FILE_MAX_ROWS)))[0]?.values).toHaveLength(FILE_MAX_ROWS);
    expect(await refusalOf(csv(FILE_MAX_ROWS + 1))).toBe(TOO_MANY_ROWS_MESSAGE);
    expect((await readSheet(new File([buildXlsxOfRows(FILE_MAX_ROWS)], 'many.xlsx')))[0]?.values).toHaveLength(FILE_MAX_ROWS);
    expect(await refusalOf(new File([buildXlsxOfRows(FILE_MAX_ROWS + 1)], 'many.xlsx'))).toBe(TOO_MANY_ROWS_MESSAGE);
    expect(TOO_MANY_ROWS_MESSAGE).toBe('Can only load files up to 10,000 rows');
  });

  it('reads 1,000 columns that hold anything and refuses a file with more; empty and far-away cells cost nothing', async () => {
    const wide = (count: number) => new File([`${Array.from({ length: count }, (_, i) => `c${i}`).join(',')}\n`], 'wide.csv');
    expect(await readSheet(wide(FILE_MAX_COLUMNS))).toHaveLength(FILE_MAX_COLUMNS);
    expect(await refusalOf(wide(FILE_MAX_COLUMNS + 1))).toBe(TOO_MANY_COLUMNS_MESSAGE);
    expect(await readSheet(new File([`a@example.test${','.repeat(100_000)}\n`], 'commas.csv'))).toEqual([
      { index: 0, values: ['a@example.test'] },
    ]);
    // A cell in the sheet's last column, on each of 10,000 rows.
    const rows = Array.from(
      { length: FILE_MAX_ROWS },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>p${i}@example.test</t></is></c><c r="XFD${i + 1}"><v>1</v></c></row>`,
    );
    const columns = await readSheet(new File([buildXlsx(rows.join(''))], 'far.xlsx'));
    expect(columns.map((column) => [column.index, column.values.length])).toEqual([
      [0, FILE_MAX_ROWS],
      [16_383, FILE_MAX_ROWS],
    ]);
    expect(TOO_MANY_COLUMNS_MESSAGE).toBe('Can only load files up to 1,000 columns');
  });

  it('refuses an xlsx that unpacks beyond the bound before the spreadsheet library unpacks it, whatever its headers say', async () => {
    const bomb = buildXlsxBomb(100 * MB);
    expect(bomb.length).toBeLessThan(MB);
    const lying = buildXlsxBomb(100 * MB, { declaredSize: 1000 });
    for (const bytes of [bomb, lying]) {
      vi.mocked(XLSX.read).mockClear();
      expect(await refusalOf(new File([bytes], 'bomb.xlsx'))).toBe(CONTENT_TOO_LARGE_MESSAGE);
      expect(XLSX.read).not.toHaveBeenCalled();
    }
    // Headers that understate the compressed data: the library would inflate on past them.
    vi.mocked(XLSX.read).mockClear();
    const hidden = buildXlsxBomb(100 * MB, { declaredSize: 1000, declaredCompressedSize: 100 });
    expect(await refusalOf(new File([hidden], 'bomb.xlsx'))).toBe(PARSE_FAILED_MESSAGE);
    expect(XLSX.read).not.toHaveBeenCalled();
    // A small sheet whose headers claim gigabytes: the library would allocate them up front.
    vi.mocked(XLSX.read).mockClear();
    const claiming = buildXlsx('<row><c t="inlineStr"><is><t>ann@example.test</t></is></c></row>', { declaredSize: 0xffffffff });
    expect(await refusalOf(new File([claiming], 'claiming.xlsx'))).toBe(CONTENT_TOO_LARGE_MESSAGE);
    expect(XLSX.read).not.toHaveBeenCalled();
    // The library takes anything that starts with "PK" for a zip, and skips the local headers' signatures.
    vi.mocked(XLSX.read).mockClear();
    const disguised = buildXlsxBomb(100 * MB);
    disguised.set([0x07, 0x08], 2);
    expect(await refusalOf(new File([disguised], 'bomb.xlsx'))).toBe(PARSE_FAILED_MESSAGE);
    expect(XLSX.read).not.toHaveBeenCalled();
    // Named .xls, a zip is still a zip.
    expect(await refusalOf(new File([bomb], 'bomb.xls'))).toBe(CONTENT_TOO_LARGE_MESSAGE);
  });

  it('reads what unpacks within the bound, however well it compresses: its rows bound it', async () => {
    const dense = buildXlsxBomb(UNPACKED_MAX_BYTES - MB);
    expect(await refusalOf(new File([dense], 'dense.xlsx'))).toBe(TOO_MANY_ROWS_MESSAGE);
  });

  it('says how far it has come: unpacking, then reading', async () => {
    const progress: ReadProgress[] = [];
    await readSheet(new File([buildXlsxOfRows(20)], 'list.xlsx'), (step) => progress.push(step));
    expect(progress.at(-1)).toEqual({ phase: 'reading' });
    const fractions = progress.flatMap((step) => (step.phase === 'unpacking' ? [step.fraction] : []));
    expect(fractions).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
  });
});
