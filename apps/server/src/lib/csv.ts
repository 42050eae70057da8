/** Cells that a spreadsheet would run as a formula start with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-looking text is neutralised with a leading quote, then RFC 4180 quoting. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** CSV lines, each ended by CRLF: a part of a file written in pieces. */
export function toCsvLines(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

export function toCsv(header: string[], rows: string[][]): string {
  return toCsvLines([header, ...rows]);
}
