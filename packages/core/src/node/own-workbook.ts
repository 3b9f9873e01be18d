import { inflateRawSync } from 'node:zlib';
import { MAX_SHEET_CELLS, type WorkbookRowsText } from '../report/reader.js';

/**
 * Reads a workbook bt's own writer made (report/sheet-xml.ts, xlsx-parts.ts) without exceljs,
 * straight to what the server keeps of it: each row as the JSON text `workbookRowsText`
 * gives (docs/report.md, "Reading a result back"). exceljs builds an object per cell, about
 * 900 ms for a 10,000-trade workbook; this scans the XML once and copies a number's digits as
 * they are written. It knows only what the writer writes: numbers, shared strings, booleans,
 * dates by their cell style, plain `<si><t>` strings. Anything else (a formula, an inline string,
 * rich text, the 1904 date system, a number format it does not know, a part it cannot find)
 * answers null, and the caller reads the file with exceljs, as before.
 */

/** Bytes the parts may inflate to: far past any workbook exceljs itself could load. */
const MAX_INFLATED = 512 * 1024 * 1024;

/** Not a workbook this reader knows: the caller falls back to exceljs. */
class Unknown extends Error {}

const unknown = (what: string): never => {
  throw new Unknown(what);
};

/** The rows of each sheet as JSON text, or null when the workbook holds anything bt's writer does not write. */
export function ownWorkbookText(bytes: Uint8Array): WorkbookRowsText | null {
  try {
    const parts = zipEntries(bytes);
    let inflated = 0;
    const part = (name: string): Buffer => {
      const entry = parts.get(name) ?? unknown(`no part ${name}`);
      if (entry.size > MAX_INFLATED - inflated) unknown(`${name}: ${entry.size} bytes declared`);
      // One output chunk of the declared size (up to 64 MiB): no copy of chunks into one buffer
      // after. Never more than the declared size: a part that lies about it stops there.
      const chunkSize = Math.max(64 * 1024, Math.min(entry.size + 1, 64 * 1024 * 1024));
      const data = entry.method === 0 ? entry.data : inflateRawSync(entry.data, { maxOutputLength: Math.max(1, entry.size), chunkSize });
      if (data.length !== entry.size) unknown(`${name}: ${data.length} bytes, ${entry.size} declared`);
      inflated += data.length;
      return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    };
    const text = (name: string): string => part(name).toString('utf8');
    const workbook = text('xl/workbook.xml');
    if (/date1904="(1|true)"/.test(workbook)) unknown('1904 dates');
    const targets = relationships(text('xl/_rels/workbook.xml.rels'));
    const dates = dateStyles(text('xl/styles.xml'));
    // Each shared string as JSON text once, copied into every cell that names it.
    const strings = parts.has('xl/sharedStrings.xml') ? sharedStrings(text('xl/sharedStrings.xml')).map((s) => Buffer.from(JSON.stringify(s))) : [];
    const sheets: WorkbookRowsText = [];
    for (const m of workbook.matchAll(/<sheet\b([^>]*)\/>/g)) {
      const name = decode(attribute(m[1], 'name') ?? unknown('a sheet without a name'));
      const target = targets.get(attribute(m[1], 'r:id') ?? unknown('a sheet without r:id')) ?? unknown('a sheet without its part');
      const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
      sheets.push({ name, ...sheetRows(part(path), strings, dates, name) });
    }
    return sheets.length ? sheets : null;
  } catch {
    // Unknown, or what a forged file breaks here (a date out of range): exceljs decides.
    return null;
  }
}

const ATTRIBUTES = new Map<string, RegExp>();

/**
 * The entries of a ZIP as the writer makes them (report/zip.ts): stored or deflated, no ZIP64, no
 * encryption, names in UTF-8; their data as views of the bytes, inflated only when read.
 */
function zipEntries(bytes: Uint8Array): Map<string, { method: number; size: number; data: Uint8Array }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  // The end record, found from the end (its comment, up to 65,535 bytes, follows it).
  let eocd = -1;
  for (let at = end; at >= 0 && at >= end - 0xffff; at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) unknown('no end of central directory');
  const count = view.getUint16(eocd + 10, true);
  if (count > 64) unknown(`${count} entries`);
  let at = view.getUint32(eocd + 16, true);
  const names = new TextDecoder('utf-8', { fatal: true });
  const entries = new Map<string, { method: number; size: number; data: Uint8Array }>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) unknown('a broken central directory');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if ((flags & 1) !== 0 || (method !== 0 && method !== 8) || compressed === 0xffffffff || size === 0xffffffff) unknown('an entry it does not read');
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) unknown(`${name}: no local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressed > bytes.length) unknown(`${name}: cut short`);
    entries.set(name, { method, size, data: bytes.subarray(start, start + compressed) });
    at = next;
  }
  return entries;
}

function attribute(attributes: string, name: string): string | undefined {
  let pattern = ATTRIBUTES.get(name);
  if (!pattern) ATTRIBUTES.set(name, (pattern = new RegExp(`(?:^|\\s)${name}="([^"]*)"`)));
  return pattern.exec(attributes)?.[1];
}

function relationships(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<Relationship\b([^>]*)\/>/g)) {
    const id = attribute(m[1], 'Id');
    const target = attribute(m[1], 'Target');
    if (id && target) out.set(id, decode(target));
  }
  return out;
}

/** Number formats Excel knows by id that the writer uses (xlsx-parts.ts BUILTIN_FORMATS, 0 General): none is a date. */
const BUILTIN_NOT_DATES = new Set([0, 1, 2, 9, 10]);

/** Whether each cell style (cellXfs index) shows a date, by exceljs's own rule for a format code. */
function dateStyles(xml: string): boolean[] {
  const codes = new Map<number, string>();
  for (const m of xml.matchAll(/<numFmt\b([^>]*)\/>/g)) codes.set(Number(attribute(m[1], 'numFmtId')), decode(attribute(m[1], 'formatCode') ?? ''));
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml)?.[1] ?? unknown('no cellXfs');
  return [...xfs.matchAll(/<xf\b([^>]*?)\/?>/g)].map((m) => {
    const id = Number(attribute(m[1], 'numFmtId') ?? 0);
    const code = codes.get(id);
    if (code === undefined) return BUILTIN_NOT_DATES.has(id) ? false : unknown(`number format ${id}`);
    return isDateFormat(code);
  });
}

/** exceljs's isDateFmt: a y, m, d, h, s or b outside quotes and brackets. */
function isDateFormat(code: string): boolean {
  return /[ymdhMsb]+/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

function sharedStrings(xml: string): string[] {
  const out: string[] = [];
  const body = /<sst\b[^>]*>([\s\S]*)<\/sst>/.exec(xml)?.[1] ?? (/<sst\b[^>]*\/>/.test(xml) ? '' : unknown('no sst'));
  const item = /<si>(?:<t(?: xml:space="preserve")?>([^<]*)<\/t>|<t(?: xml:space="preserve")?\/>)<\/si>/y;
  let at = 0;
  while (at < body.length) {
    item.lastIndex = at;
    const m = item.exec(body) ?? unknown('a shared string other than <si><t>');
    const value = m[1] ?? '';
    // Excel's _xHHHH_ escapes: left to exceljs, whose reading of them this does not copy.
    if (value.includes('_x')) unknown('an _x escape');
    out.push(decode(value));
    at = item.lastIndex;
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text as a parser gives it: the five entities and character references. */
function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (all, name: string) => {
    if (name[0] !== '#') return ENTITIES[name] ?? unknown(`entity ${all}`);
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : unknown(`character ${all}`);
  });
}

/** Bytes of the tags and texts the scanner looks for. */
const B = { lt: 60, gt: 62, slash: 47, quote: 34, eq: 61, c: 99, v: 118, r: 114, s: 115, t: 116, comma: 44, minus: 45, zero: 48, nine: 57, dot: 46 };
const NULL = Buffer.from('null');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const isSpace = (byte: number) => byte === 32 || byte === 9 || byte === 10 || byte === 13;

/**
 * A row's JSON text as bytes, then one string: the cells are copied into one growing buffer and
 * decoded once per row. Strings per cell (a slice of the XML, then a concatenation) made the
 * garbage collector the largest cost of the read.
 */
class RowBytes {
  bytes = Buffer.allocUnsafe(64 * 1024);
  length = 0;
  room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + n));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
  put(source: Uint8Array, start = 0, end = source.length): void {
    this.room(end - start);
    for (let i = start; i < end; i++) this.bytes[this.length++] = source[i];
  }
  byte(value: number): void {
    this.room(1);
    this.bytes[this.length++] = value;
  }
  text(): string {
    const text = this.bytes.toString('utf8', 0, this.length);
    this.length = 0;
    return text;
  }
}

/** A cell's start tag, read from the byte after `<c` to its `>`: the column of r, s and t. */
interface CellTag {
  /** Column of the `r` reference (0-based), or -1 when the cell has none. */
  column: number;
  style: number;
  /** The type's first byte (s, b, n, e, i for inlineStr...), 0 when none. */
  type: number;
  /** Index after the tag; whether it closed the cell (`/>`). */
  next: number;
  empty: boolean;
}

function cellTag(b: Buffer, at: number, end: number, tag: CellTag): void {
  tag.column = -1;
  tag.style = 0;
  tag.type = 0;
  for (;;) {
    while (at < end && isSpace(b[at])) at++;
    const c = b[at];
    if (c === B.gt) {
      tag.next = at + 1;
      tag.empty = false;
      return;
    }
    if (c === B.slash && b[at + 1] === B.gt) {
      tag.next = at + 2;
      tag.empty = true;
      return;
    }
    // One-letter names only (r, s, t), each `="…"`.
    if (b[at + 1] !== B.eq || b[at + 2] !== B.quote) unknown(`a cell's attribute at ${at}`);
    let v = at + 3;
    if (c === B.r) {
      let column = 0;
      for (; b[v] >= 65 && b[v] <= 90; v++) column = column * 26 + (b[v] - 64);
      if (column === 0 || !(b[v] >= 49 && b[v] <= B.nine)) unknown(`a cell reference at ${at}`);
      while (b[v] >= B.zero && b[v] <= B.nine) v++;
      tag.column = column - 1;
    } else if (c === B.s) {
      let style = 0;
      for (; b[v] >= B.zero && b[v] <= B.nine && v < at + 12; v++) style = style * 10 + (b[v] - B.zero);
      if (v === at + 3) unknown(`a style at ${at}`);
      tag.style = style;
    } else if (c === B.t) {
      tag.type = b[v];
      const close = b.indexOf(B.quote, v);
      // s, b, n: one letter; anything longer (str, inlineStr) or e is not the writer's.
      if (close !== v + 1 || (tag.type !== B.s && tag.type !== 98 && tag.type !== 110)) unknown(`a cell type at ${at}`);
      v = close;
    } else unknown(`a cell attribute at ${at}`);
    if (b[v] !== B.quote) unknown(`a cell's attribute at ${at}`);
    at = v + 1;
  }
}

const ROW_TAG = Buffer.from('<row');
const ROW_END = Buffer.from('</row>');
const VALUE_END = Buffer.from('</v>');
const CELL_END = Buffer.from('</c>');
function startsAt(b: Buffer, at: number, tag: Buffer): boolean {
  if (at + tag.length > b.length) return false;
  for (let i = 0; i < tag.length; i++) if (b[at + i] !== tag[i]) return false;
  return true;
}

/** One worksheet's rows as exceljs's reader gives them (report/reader.ts matrix), each as JSON text. */
function sheetRows(b: Buffer, strings: Buffer[], dates: boolean[], name: string): { width: number; rows: string[] } {
  const start = b.indexOf('<sheetData');
  if (start < 0) unknown('no sheetData');
  const open = b.indexOf(B.gt, start);
  if (b[open - 1] === B.slash) return { width: 0, rows: [] };
  const end = b.indexOf('</sheetData>', open);
  if (end < 0) unknown('no </sheetData>');
  if (b.indexOf('<mergeCell', end) >= 0) unknown('merged cells');
  // Each row: its number, its cells' JSON text without brackets (the rectangle's width is known
  // at the end), how many cells, and whether one of them holds a value.
  const numbers: number[] = [];
  const texts: string[] = [];
  const counts: number[] = [];
  const valued: boolean[] = [];
  const out = new RowBytes();
  const tag: CellTag = { column: -1, style: 0, type: 0, next: 0, empty: false };
  let width = 0;
  let at = open + 1;
  let last = 0;
  while (at < end) {
    if (!startsAt(b, at, ROW_TAG) || !(isSpace(b[at + 4]) || b[at + 4] === B.gt || b[at + 4] === B.slash)) unknown(`no row at ${at}`);
    const close = b.indexOf(B.gt, at);
    if (close < 0 || close > end) unknown(`a row at ${at}`);
    const attributes = b.toString('latin1', at + 4, close);
    const selfClosed = b[close - 1] === B.slash;
    const number = Number(attribute(selfClosed ? attributes.slice(0, -1) : attributes, 'r') ?? last + 1);
    if (!Number.isInteger(number) || number <= last) unknown(`row ${number} after ${last}`);
    last = number;
    at = close + 1;
    let count = 0;
    let hasValue = false;
    if (!selfClosed) {
      let column = -1;
      // `<c `, `<c>` or `<c/`: a cell; anything else ends the row's cells.
      while (b[at] === B.lt && b[at + 1] === B.c && (isSpace(b[at + 2]) || b[at + 2] === B.gt || b[at + 2] === B.slash)) {
        cellTag(b, at + 2, end, tag);
        at = tag.next;
        let valueStart = -1;
        let valueEnd = -1;
        if (!tag.empty) {
          if (b[at] === B.lt && b[at + 1] === B.v && b[at + 2] === B.gt) {
            valueStart = at + 3;
            valueEnd = b.indexOf(B.lt, valueStart);
            if (valueEnd < 0 || !startsAt(b, valueEnd, VALUE_END)) unknown(`a value at ${at}`);
            at = valueEnd + 4;
          }
          if (!startsAt(b, at, CELL_END)) unknown(`a cell other than <c><v> at ${at}`);
          at += 4;
        }
        column = tag.column < 0 ? column + 1 : tag.column;
        if (column < count) unknown(`cell ${column} out of order`);
        for (; count < column; count++) {
          if (count) out.byte(B.comma);
          out.put(NULL);
        }
        if (count) out.byte(B.comma);
        count++;
        if (valueStart < 0) {
          // No value: null, as exceljs gives an empty cell of any type it reads.
          out.put(NULL);
          continue;
        }
        hasValue = true;
        cellValue(b, valueStart, valueEnd, tag, strings, dates, out);
      }
      if (!startsAt(b, at, ROW_END)) unknown(`a row's content at ${at}`);
      at += 6;
    }
    if (count > width) width = count;
    if (width * number > MAX_SHEET_CELLS) unknown(`sheet ${name}: too many cells`);
    numbers.push(number);
    texts.push(out.text());
    counts.push(count);
    valued.push(hasValue);
  }
  if (width === 0) return { width: 0, rows: [] };
  // As exceljs's rowCount: trailing rows without a value are not data.
  let kept = numbers.length;
  while (kept > 0 && !valued[kept - 1]) kept--;
  const nulls = (n: number, first: boolean) => (n > 0 ? (first ? 'null' : ',null') + ',null'.repeat(n - 1) : '');
  const empty = '[' + nulls(width, true) + ']';
  const rows: string[] = [];
  for (let i = 0; i < kept; i++) {
    while (rows.length < numbers[i] - 1) rows.push(empty);
    rows.push('[' + texts[i] + nulls(width - counts[i], counts[i] === 0) + ']');
  }
  return { width, rows };
}

/**
 * Whether bytes [start, end) are a number in JSON's own syntax without an exponent (an exponent
 * that overflows would read Infinity, null in JSON) and not -0 (JSON.stringify writes 0): then
 * its digits are the cell's JSON text as they are.
 */
function plainNumber(b: Buffer, start: number, end: number): boolean {
  let i = start;
  if (b[i] === B.minus) i++;
  if (i >= end) return false;
  if (b[i] === B.zero) {
    if (i > start) return false;
    i++;
  } else {
    if (!(b[i] >= 49 && b[i] <= B.nine)) return false;
    while (i < end && b[i] >= B.zero && b[i] <= B.nine) i++;
  }
  if (i === end) return true;
  if (b[i] !== B.dot || ++i === end) return false;
  while (i < end && b[i] >= B.zero && b[i] <= B.nine) i++;
  return i === end;
}

/** A cell's value as JSON text, as JSON.stringify writes the cell exceljs reads (report/reader.ts plain). */
function cellValue(b: Buffer, start: number, end: number, tag: CellTag, strings: Buffer[], dates: boolean[], out: RowBytes): void {
  if (tag.type === B.s) {
    let index = 0;
    for (let i = start; i < end; i++) {
      const d = b[i] - B.zero;
      if (d < 0 || d > 9 || i - start > 9) unknown(`shared string at ${start}`);
      index = index * 10 + d;
    }
    if (end === start || index >= strings.length) unknown(`shared string at ${start}`);
    out.put(strings[index]);
    return;
  }
  // exceljs's reading of a boolean and a number (xlsx/xform/sheet/cell-xform.js).
  if (tag.type === 98) {
    out.put(parseInt(b.toString('latin1', start, end), 10) !== 0 ? TRUE : FALSE);
    return;
  }
  const isDate = dates[tag.style] ?? unknown(`style ${tag.style}`);
  if (!isDate && plainNumber(b, start, end)) {
    out.put(b, start, end);
    return;
  }
  const number = parseFloat(b.toString('latin1', start, end));
  if (!Number.isFinite(number)) unknown(`number at ${start}`);
  // exceljs's excelToDate, in its order of operations.
  const text = isDate ? '"' + new Date(Math.round((number - 25569 + 0) * 24 * 3600 * 1000)).toISOString() + '"' : JSON.stringify(number);
  out.put(Buffer.from(text, 'latin1'));
}
