/**
 * Reads a bulk-invite file (csv, xls, xlsx) into its columns, within bounds: the file's size, its
 * rows and columns and, for an xlsx (a zip), what it unpacks to. Runs in a Web Worker (read-sheet.worker.ts):
 * a hostile file can then cost a worker, never the page.
 */

/** Spec section 5: the message of a file that cannot be read. */
export const PARSE_FAILED_MESSAGE = 'Problem parsing input file';

/** The largest file read at all: checked before a byte of it is read. */
export const FILE_MAX_BYTES = 5 * 1024 * 1024;
export const FILE_TOO_LARGE_MESSAGE = 'Can only load files up to 5 MB';

/** The most rows a file may have; only the first 50 addresses are used anyway. */
export const FILE_MAX_ROWS = 10_000;
export const TOO_MANY_ROWS_MESSAGE = 'Can only load files up to 10,000 rows';

/**
 * What an xlsx may unpack to. The spreadsheet library unpacks every part of the zip in memory
 * before it reads a row, whatever `sheetRows` says, and needs several times that again to parse it:
 * a small file that unpacks to gigabytes would take the whole tab down. Ten thousand rows of a
 * roster fit well within this.
 */
export const UNPACKED_MAX_BYTES = 20 * 1024 * 1024;
export const CONTENT_TOO_LARGE_MESSAGE = 'File content too large to load';

/**
 * The most columns holding anything a file may have: the user picks one of them, each shown with
 * sample values.
 */
export const FILE_MAX_COLUMNS = 1_000;
export const TOO_MANY_COLUMNS_MESSAGE = 'Can only load files up to 1,000 columns';

/** A column of a file that holds anything: its position, and its non-empty values (trimmed), top to bottom. */
export type SheetColumn = { index: number; values: string[] };

/** How far reading has come: unpacking an xlsx (a fraction), then reading the rows. */
export type ReadProgress = { phase: 'unpacking'; fraction: number } | { phase: 'reading' };

/** A file refused; `message` is one of the messages above, for the user. */
export class SheetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SheetError';
  }
}

/** A spreadsheet cell as text (numbers and booleans as typed; anything else is not an address). */
function cellText(cell: unknown): string {
  return typeof cell === 'string' || typeof cell === 'number' || typeof cell === 'boolean' ? String(cell) : '';
}

/**
 * Gathers a file's non-empty cells into its columns. Only the cells present are visited, never a
 * padded grid: one stray cell in the last column of a sheet must not cost a row of 16,384 cells.
 */
function collectColumns() {
  const columns = new Map<number, Array<{ row: number; value: string }>>();
  return {
    add(row: number, column: number, text: string) {
      const value = text.trim();
      if (value.length === 0) return;
      let cells = columns.get(column);
      if (!cells) {
        if (columns.size === FILE_MAX_COLUMNS) throw new SheetError(TOO_MANY_COLUMNS_MESSAGE);
        cells = [];
        columns.set(column, cells);
      }
      cells.push({ row, value });
    },
    columns(): SheetColumn[] {
      return [...columns.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, cells]) => ({ index, values: cells.sort((a, b) => a.row - b.row).map((cell) => cell.value) }));
    },
  };
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_FIELD = 0x0001;

/** Compressed bytes inflated at a time: deflate expands at most about 1032:1, so a slice never overshoots by much. */
const INFLATE_SLICE = 4 * 1024;

/**
 * Whether the spreadsheet library takes `bytes` for a zip: it does for anything that starts with
 * "PK", whatever the file is called and whatever follows.
 */
const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b;

/**
 * The size `data` (raw deflate) inflates to, counted as a stream and given up as soon as it passes
 * `room`: nothing larger than a slice's output is ever held.
 */
async function inflatedSize(data: Uint8Array<ArrayBuffer>, room: number): Promise<number> {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let size = 0;
  let isOver = false;
  const counting = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > room) {
        isOver = true;
        await reader.cancel();
        return;
      }
    }
  })();
  const writing = (async () => {
    for (let offset = 0; offset < data.length && !isOver; offset += INFLATE_SLICE) {
      await writer.write(data.subarray(offset, offset + INFLATE_SLICE));
    }
    if (!isOver) await writer.close();
  })();
  // Either side failing fails the other (a cancelled output fails the writes still under way).
  const [written, counted] = await Promise.allSettled([writing, counting]);
  if (isOver) throw new SheetError(CONTENT_TOO_LARGE_MESSAGE);
  if (written.status === 'rejected') throw written.reason;
  if (counted.status === 'rejected') throw counted.reason;
  return size;
}

/**
 * Refuses a zip whose entries unpack to more than `limit` bytes in all. Every entry the spreadsheet
 * library would unpack (it walks the same central directory) is inflated and counted here first,
 * and counts for at least the size its headers declare: the library allocates that up front.
 */
export async function assertUnpacksWithin(
  bytes: Uint8Array<ArrayBuffer>,
  limit: number,
  onProgress: (fraction: number) => void = () => {},
): Promise<void> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const uint32At = (at: number) => (at >= 0 && at + 4 <= bytes.length ? view.getUint32(at, true) : -1);
  const uint16At = (at: number) => (at >= 0 && at + 2 <= bytes.length ? view.getUint16(at, true) : -1);
  const unreadable = () => new SheetError(PARSE_FAILED_MESSAGE);
  /** Whether the extra fields from `at` (`length` bytes) hold ZIP64 sizes, which no file this small needs. */
  const hasZip64Sizes = (at: number, length: number) => {
    for (let field = at; field + 4 <= at + length; field += 4 + uint16At(field + 2)) {
      if (uint16At(field) === ZIP64_FIELD) return true;
    }
    return false;
  };

  // The last end record, searched for as the library does, so that both walk the same directory.
  let end = bytes.length - 4;
  while (end >= 0 && uint32At(end) !== END_OF_CENTRAL_DIRECTORY) end -= 1;
  if (end < 0 || end + 22 > bytes.length) throw unreadable();
  const entries = uint16At(end + 10);
  let at = uint32At(end + 16);
  let total = 0;
  for (let index = 0; index < entries; index += 1) {
    if (at < 0 || at + 46 > bytes.length || uint32At(at) !== CENTRAL_HEADER) throw unreadable();
    const method = uint16At(at + 10);
    const compressedSize = uint32At(at + 20);
    const local = uint32At(at + 42);
    const isZip64 = hasZip64Sizes(at + 46 + uint16At(at + 28), uint16At(at + 30));
    const declared = Math.max(uint32At(at + 24), uint32At(local + 22));
    at += 46 + uint16At(at + 28) + uint16At(at + 30) + uint16At(at + 32);
    if (local + 30 > bytes.length || uint32At(local) !== LOCAL_HEADER) throw unreadable();
    const start = local + 30 + uint16At(local + 26) + uint16At(local + 28);
    if (isZip64 || hasZip64Sizes(local + 30 + uint16At(local + 26), uint16At(local + 28))) throw unreadable();
    if (start + compressedSize > bytes.length) throw unreadable();
    if (total + declared > limit) throw new SheetError(CONTENT_TOO_LARGE_MESSAGE);
    const data = bytes.subarray(start, start + compressedSize);
    let size: number;
    if (method === 0) size = data.length;
    else if (method === 8) {
      try {
        size = await inflatedSize(data, limit - total);
      } catch (error) {
        throw error instanceof SheetError ? error : unreadable();
      }
    } else throw unreadable();
    total += Math.max(size, declared);
    if (total > limit) throw new SheetError(CONTENT_TOO_LARGE_MESSAGE);
    onProgress((index + 1) / entries);
  }
}

async function readCsv(file: Blob): Promise<SheetColumn[]> {
  const { default: Papa } = await import('papaparse');
  const collected = collectColumns();
  let rows = 0;
  // Set inside the parser's callback, where a throw would not reach the caller.
  const refusals: SheetError[] = [];
  let hasErrors = false;
  Papa.parse<string[]>(await file.text(), {
    skipEmptyLines: true,
    step: (result, parser) => {
      if (result.errors.length > 0) hasErrors = true;
      try {
        if (rows === FILE_MAX_ROWS) throw new SheetError(TOO_MANY_ROWS_MESSAGE);
        result.data.forEach((cell, column) => collected.add(rows, column, String(cell)));
        rows += 1;
      } catch (error) {
        refusals.push(error as SheetError);
        parser.abort();
      }
    },
  });
  const [refusal] = refusals;
  if (refusal) throw refusal;
  if (hasErrors && rows === 0) throw new SheetError(PARSE_FAILED_MESSAGE);
  return collected.columns();
}

async function readWorkbook(file: Blob, onProgress: (progress: ReadProgress) => void): Promise<SheetColumn[]> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (isZip(bytes))
    await assertUnpacksWithin(bytes, UNPACKED_MAX_BYTES, (fraction) => onProgress({ phase: 'unpacking', fraction }));
  onProgress({ phase: 'reading' });
  const XLSX = await import('@e965/xlsx');
  try {
    // The first sheet only, and one row more than allowed: enough to tell that there are too many.
    const workbook = XLSX.read(bytes, { type: 'array', sheets: 0, sheetRows: FILE_MAX_ROWS + 1 });
    const first = workbook.SheetNames[0];
    const sheet = first ? workbook.Sheets[first] : undefined;
    if (!sheet) throw new SheetError(PARSE_FAILED_MESSAGE);
    if (XLSX.utils.decode_range(sheet['!ref'] ?? 'A1').e.r >= FILE_MAX_ROWS) throw new SheetError(TOO_MANY_ROWS_MESSAGE);
    const collected = collectColumns();
    for (const [address, cell] of Object.entries(sheet)) {
      if (address.startsWith('!')) continue;
      const { r, c } = XLSX.utils.decode_cell(address);
      collected.add(r, c, cellText((cell as { v?: unknown }).v));
    }
    return collected.columns();
  } catch (error) {
    throw error instanceof SheetError ? error : new SheetError(PARSE_FAILED_MESSAGE);
  }
}

/**
 * Reads a csv, xls or xlsx file into its columns; throws a SheetError, whose message is for the
 * user, on a file too large, too long or too wide, or that it cannot read.
 */
export async function readSheet(file: File, onProgress: (progress: ReadProgress) => void = () => {}): Promise<SheetColumn[]> {
  if (file.size > FILE_MAX_BYTES) throw new SheetError(FILE_TOO_LARGE_MESSAGE);
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv')) {
    onProgress({ phase: 'reading' });
    return readCsv(file);
  }
  if (name.endsWith('.xlsx') || name.endsWith('.xls')) return readWorkbook(file, onProgress);
  throw new SheetError(PARSE_FAILED_MESSAGE);
}
