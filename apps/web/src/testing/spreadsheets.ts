import { crc32, deflateRawSync } from 'node:zlib';

/** Builds spreadsheet files for tests, down to the zip: bombs and lying headers included (Node only). */

export type ZipEntry = {
  name: string;
  content: string;
  /** What the headers say the entry unpacks to, when not the truth. */
  declaredSize?: number;
  /** What the headers say the entry's compressed data takes, when not the truth. */
  declaredCompressedSize?: number;
};

/** A zip of deflated entries, laid out as the format says (local headers, central directory, end record). */
export function buildZip(entries: readonly ZipEntry[]): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = Buffer.from(entry.content, 'utf8');
    const data = deflateRawSync(raw, { level: 9 });
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? raw.length;
    const compressedSize = entry.declaredCompressedSize ?? data.length;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressedSize, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

type Lies = Pick<ZipEntry, 'declaredSize' | 'declaredCompressedSize'>;

/** An xlsx of one sheet whose `<sheetData>` is `rowsXml`, as small as the format allows; `lies` go into the sheet's headers. */
export function buildXlsx(rowsXml: string, lies: Lies = {}): Uint8Array<ArrayBuffer> {
  return buildZip([
    {
      name: '[Content_Types].xml',
      content: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      content: `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      content: `${XML}<workbook xmlns="${MAIN}" xmlns:r="${OFFICE}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: `${XML}<worksheet xmlns="${MAIN}"><sheetData>${rowsXml}</sheetData></worksheet>`,
      ...lies,
    },
  ]);
}

/** One row of one address, without a row number: repeated, it compresses to almost nothing. */
const ADDRESS_ROW = '<row><c t="inlineStr"><is><t>person@example.test</t></is></c></row>';

/**
 * A zip bomb dressed as an xlsx: a sheet of the same address over and over, unpacking to about
 * `unpackedBytes` from a few hundred times less; `lies` make its headers hide that.
 */
export function buildXlsxBomb(unpackedBytes: number, lies: Lies = {}): Uint8Array<ArrayBuffer> {
  return buildXlsx(ADDRESS_ROW.repeat(Math.ceil(unpackedBytes / ADDRESS_ROW.length)), lies);
}

/** An xlsx with one address per row, `count` rows. */
export function buildXlsxOfRows(count: number): Uint8Array<ArrayBuffer> {
  const rows = Array.from(
    { length: count },
    (_, index) =>
      `<row r="${index + 1}"><c r="A${index + 1}" t="inlineStr"><is><t>person${index + 1}@example.test</t></is></c></row>`,
  );
  return buildXlsx(rows.join(''));
}
