import { crc32, deflateRawSync } from 'node:zlib';

/** One part of a zip: its name, and either its bytes or the parts of its bytes (joined lazily). */
export interface ZipSource {
  name: string;
  data: Buffer;
  /** What the headers claim the part inflates to (default: the truth). */
  claimedSize?: number;
}

/**
 * A zip written by hand (stored sizes under our control, so tests can build archives that lie),
 * every part deflated. Only what yauzl and exceljs need: local headers, central directory, end.
 */
export function zipOf(parts: { name: string; deflated: Buffer; crc: number; size: number; claimedSize?: number; unixMode?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const size = part.claimedSize ?? part.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(part.crc >>> 0, 16);
    central.writeUInt32LE(part.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    if (part.unixMode !== undefined) {
      // Made on Unix (3), so the high half of the external attributes is the file's mode.
      central.writeUInt16LE((3 << 8) | 20, 4);
      central.writeUInt32LE((part.unixMode << 16) >>> 0, 38);
    }
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + part.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** One deflated part of a zip. */
export function part(name: string, text: string | Buffer) {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  // zlib's default level: on a real candle CSV, level 9 took five times as long (392 against 71 ms
  // for 1.4 MB) for 3 % fewer bytes, in every import and workbook test that builds a zip.
  return { name, deflated: deflateRawSync(data), crc: crc32(data), size: data.length };
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Candles" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

function cell(ref: string, value: string | number): string {
  return typeof value === 'number' ? `<c r="${ref}"><v>${value}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
}

/** A real workbook of M1 candles (inline strings, no shared-strings part), `rows` candles long. */
export function candleWorkbook(rows: number, start = Date.UTC(2024, 0, 1)): Buffer {
  const lines: string[] = [SHEET_HEAD];
  const header = ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume'];
  lines.push(`<row r="1">${header.map((h, c) => cell(`${'ABCDEF'[c]}1`, h)).join('')}</row>`);
  for (let i = 0; i < rows; i++) {
    const r = i + 2;
    const p = 1.1 + Math.sin(i / 50) * 0.01;
    const time = new Date(start + i * 60_000).toISOString().replace('.000Z', '+00:00');
    const values: (string | number)[] = [time, +p.toFixed(5), +(p + 0.0008).toFixed(5), +(p - 0.0008).toFixed(5), +(p + 0.0002).toFixed(5), 100];
    lines.push(`<row r="${r}">${values.map((v, c) => cell(`${'ABCDEF'[c]}${r}`, v)).join('')}</row>`);
  }
  lines.push(SHEET_TAIL);
  return zipOf(workbookParts(part('xl/worksheets/sheet1.xml', lines.join(''))));
}

function workbookParts(sheet: ReturnType<typeof part>) {
  return [part('[Content_Types].xml', CONTENT_TYPES), part('_rels/.rels', ROOT_RELS), part('xl/workbook.xml', WORKBOOK), part('xl/_rels/workbook.xml.rels', WORKBOOK_RELS), sheet];
}

/**
 * A decompression bomb shaped as a workbook: a worksheet of `inflatedMb` MiB of identical empty
 * rows that deflates about a thousand to one. `lie` makes the headers claim 1 KiB instead.
 */
export function bombWorkbook(inflatedMb: number, options: { lie?: boolean } = {}): Buffer {
  const row = Buffer.from('<row r="2"><c r="A2"><v>1</v></c></row>'.repeat(1 << 10));
  const unit = Buffer.alloc(1 << 20);
  for (let at = 0; at < unit.length; at += row.length) row.copy(unit, at, 0, Math.min(row.length, unit.length - at));
  const data = Buffer.allocUnsafe(unit.length * inflatedMb);
  for (let i = 0; i < inflatedMb; i++) unit.copy(data, i * unit.length);
  const sheet = part('xl/worksheets/sheet1.xml', data);
  return zipOf(workbookParts(options.lie ? { ...sheet, claimedSize: 1024 } as ReturnType<typeof part> : sheet));
}
