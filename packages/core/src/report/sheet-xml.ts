import { AsciiSink, Markup } from './bytes.js';
import { releasesInput, type DeflatedPart, type Deflater, type PieceDeflater } from './deflate.js';
import type { XlsxCell, XlsxRecords, XlsxSheet } from './xlsx.js';
import { columnName, MAX_CELL_TEXT, MAX_ROWS, type SharedStrings, type Styles } from './xlsx-parts.js';

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">';
const SHEET_VIEWS =
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
  '<sheetFormatPr defaultRowHeight="15"/>';
const SHEET_TAIL = '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

const markup = (text: string) => new Markup(text);

/**
 * A cell's opening markup, pre-encoded: `<c` + type and style + `><v>`; the same preceded by the
 * previous cell's close (one copy instead of two per cell); and its end after a written reference.
 */
interface CellTag {
  readonly open: Markup;
  readonly closeAndOpen: Markup;
  readonly afterRef: Markup;
  /** closeAndOpen as text, for RepeatedValues' kept cells. */
  readonly closeAndOpenText: string;
}

/** Per column (or per row of a metric/value sheet): the tags of each value type and how its cells are sized. */
interface CellKind {
  readonly number: CellTag;
  readonly text: CellTag;
  readonly boolean: CellTag;
  /** WIDTH_PERCENT, WIDTH_GENERAL, or the length of a `0.00`-style format. */
  readonly width: number;
}

const WIDTH_GENERAL = 0;
const WIDTH_PERCENT = -1;
const DATE_WIDTH = 16;
const BOOLEAN_WIDTH = 5;
/** A non-integer in General format: Excel shows about this many characters. */
const GENERAL_FRACTION_WIDTH = 10;

/**
 * Cell kinds by style and format, kept for the process: a style's markup never changes, and
 * encoding it (nine small arrays per kind) cost more than writing a summary sheet's cells.
 */
const cellKinds = new Map<string, CellKind>();

function cellKind(style: number, format: string | null): CellKind {
  const key = format === null ? `${style}` : `${style} ${format}`;
  let kind = cellKinds.get(key);
  if (kind === undefined) {
    kind = makeCellKind(style, format);
    // Bounded: formats come from the report's own sheets, but a caller could vary the pip size.
    if (cellKinds.size >= 256) cellKinds.clear();
    cellKinds.set(key, kind);
  }
  return kind;
}

function makeCellKind(style: number, format: string | null): CellKind {
  const s = style ? ` s="${style}"` : '';
  const tag = (attributes: string): CellTag => ({
    open: markup(`<c${attributes}><v>`),
    closeAndOpen: markup(`</v></c><c${attributes}><v>`),
    afterRef: markup(`"${attributes}><v>`),
    closeAndOpenText: `</v></c><c${attributes}><v>`,
  });
  const width = format?.endsWith('%') ? WIDTH_PERCENT : format?.startsWith('0.') ? format.length : WIDTH_GENERAL;
  return { number: tag(s), text: tag(` t="s"${s}`), boolean: tag(` t="b"${s}`), width };
}

const CELL_REF = markup('<c r="');
const CLOSE_AND_REF = markup('</v></c><c r="');
const ROW_OPEN = markup('<row r="');
const ROW_OPEN_END = markup('">');
const ROW_CLOSE = markup('</row>');
const CLOSE_AND_ROW_CLOSE = markup('</v></c></row>');

/** Column letters A, B, ... as bytes, made once for the process (up to LETTERS_KEPT columns). */
const columnLetters: Markup[] = [];
const LETTERS_KEPT = 1024;

/** At least `columns` column letters, index = column. */
function letterBytes(columns: number): Markup[] {
  for (let c = columnLetters.length; c < Math.min(columns, LETTERS_KEPT); c++) columnLetters.push(markup(columnName(c)));
  if (columns <= LETTERS_KEPT) return columnLetters;
  return [...columnLetters, ...Array.from({ length: columns - LETTERS_KEPT }, (_, i) => markup(columnName(LETTERS_KEPT + i)))];
}

/** Characters of an integer's decimal form (String(value).length without the string). */
function integerLength(value: number): number {
  const m = value < 0 ? -value : value;
  if (m >= 1e9) return String(value).length;
  const digits = m < 10 ? 1 : m < 100 ? 2 : m < 1000 ? 3 : m < 1e4 ? 4 : m < 1e5 ? 5 : m < 1e6 ? 6 : m < 1e7 ? 7 : m < 1e8 ? 8 : 9;
  return value < 0 ? digits + 1 : digits;
}

/** Display width of a number in characters, roughly as Excel sizes it under the cell's format. */
function numberWidth(value: number, width: number): number {
  if (width === WIDTH_PERCENT) return 8;
  if (width > 0) return integerLength(Math.trunc(Math.abs(value))) + width + (value < 0 ? 1 : 0);
  return Number.isInteger(value) ? integerLength(value) : GENERAL_FRACTION_WIDTH;
}

/** Distinct values RepeatedValues keeps per column; others are written as usual. */
const REPEATED_KEPT = 8;

/**
 * The cells of a column whose numbers repeat (XlsxColumn.repeats: the Trades sheet's cost
 * columns, a handful of values over thousands of rows), per sheet: for each value seen, the bytes
 * from the previous cell's close to this value (`</v></c><c s=".."><v>1.2`), which number()
 * would write, as one copy. Only for a cell written right after its row's previous cell (no
 * reference), the Trades sheet's case; its width was fitted when the value was first written.
 */
class RepeatedValues {
  readonly values = new Float64Array(REPEATED_KEPT);
  readonly cells: Markup[] = [];
  constructor(readonly kind: CellKind) {}

  /** The kept cell of `value`, or null. */
  find(value: number): Markup | null {
    const { values, cells } = this;
    for (let i = 0; i < cells.length; i++) if (values[i] === value) return cells[i];
    return null;
  }

  /** Keeps `value`'s cell (a finite number just written unreferenced), while there is room. */
  keep(value: number): void {
    if (this.cells.length === REPEATED_KEPT) return;
    // String(value) is what AsciiSink.number() writes (bytes.ts); -0 writes 0 there and here.
    this.values[this.cells.length] = value;
    this.cells.push(markup(this.kind.number.closeAndOpenText + String(value === 0 ? 0 : value)));
  }
}

/** Size of the pieces a large sheet is handed to a piece deflater in. */
const PIECE_BYTES = 512 * 1024;

/**
 * Writes one worksheet's rows into bytes and sizes its columns on the way. A cell's `r`
 * reference is written only on a row's first cell and after an empty cell: SpreadsheetML places
 * an unreferenced cell right after the previous one, and dropping the references takes a
 * quarter off the Trades sheet, which deflate then does not have to compress.
 *
 * With a piece deflater, the rows go out in pieces of about 512 KiB as they are written (piece 0,
 * the head with the column widths, goes last); otherwise into one buffer whose headroom takes the
 * head at the end.
 */
class SheetWriter {
  private out: AsciiSink;
  private readonly letters: Markup[];
  readonly widths: number[];
  private ref = 0;
  /** The column an unreferenced cell would land in; -1 at a row's start (exceljs cannot place an unreferenced first cell). */
  private next = -1;
  /** A cell's value was written and its `</v></c>` not yet. */
  private cellOpen = false;
  private piece = 1;

  constructor(
    private readonly sheet: string,
    columns: number,
    rows: number,
    private readonly strings: SharedStrings,
    private pieces: PieceDeflater | null,
  ) {
    if (rows > MAX_ROWS) throw new Error(`invalid sheet ${sheet}: ${rows} rows (Excel allows ${MAX_ROWS})`);
    // About 24 bytes per Trades cell: one allocation up front rather than doublings and copies.
    const estimate = 1024 + rows * columns * 24;
    this.out = pieces ? new AsciiSink(PIECE_BYTES + 64 * 1024) : takeSink(estimate, 1024 + columns * 64);
    this.letters = letterBytes(columns);
    this.widths = new Array<number>(columns).fill(0);
  }

  /** Whether a sheet of this size is worth handing over in pieces. */
  static pieced(rows: number, columns: number): boolean {
    return rows * columns * 24 > 4 * PIECE_BYTES;
  }

  private closeRow(): void {
    this.out.put(this.cellOpen ? CLOSE_AND_ROW_CLOSE : ROW_CLOSE);
    this.cellOpen = false;
  }

  row(ref: number): void {
    if (this.ref) this.closeRow();
    if (this.pieces && this.out.size >= PIECE_BYTES) {
      this.pieces.put(this.piece++, this.out.bytes());
      this.out = new AsciiSink(PIECE_BYTES + 64 * 1024);
    }
    this.ref = ref;
    this.next = -1;
    this.out.put(ROW_OPEN);
    this.out.uint(ref);
    this.out.put(ROW_OPEN_END);
  }

  private open(c: number, tag: CellTag): void {
    if (c === this.next) {
      this.out.put(this.cellOpen ? tag.closeAndOpen : tag.open);
    } else {
      this.out.put(this.cellOpen ? CLOSE_AND_REF : CELL_REF);
      this.out.put(this.letters[c]);
      this.out.uint(this.ref);
      this.out.put(tag.afterRef);
    }
    this.next = c + 1;
    this.cellOpen = true;
  }

  private fit(c: number, width: number): void {
    if (width > this.widths[c]) this.widths[c] = width;
  }

  number(c: number, value: number, kind: CellKind): void {
    if (!Number.isFinite(value)) return;
    this.open(c, kind.number);
    this.out.number(value);
    this.fit(c, numberWidth(value, kind.width));
  }

  /** number() of a column whose values repeat (RepeatedValues): the same bytes, one copy when kept. */
  repeatedNumber(c: number, value: number, repeated: RepeatedValues): void {
    if (c !== this.next || !this.cellOpen || !Number.isFinite(value)) {
      this.number(c, value, repeated.kind);
      return;
    }
    const cell = repeated.find(value);
    if (cell !== null) {
      this.out.put(cell);
      this.next = c + 1;
      return;
    }
    this.number(c, value, repeated.kind);
    repeated.keep(value);
  }

  /** A time in ms UTC, written as an Excel date serial. */
  date(c: number, ms: number, kind: CellKind): void {
    if (!Number.isFinite(ms)) return;
    this.open(c, kind.number);
    this.out.excelDate(ms);
    this.fit(c, DATE_WIDTH);
  }

  text(c: number, value: string, kind: CellKind): void {
    if (value.length > MAX_CELL_TEXT) throw new Error(`invalid cell ${this.sheet}!${columnName(c)}${this.ref}: ${value.length} characters (Excel allows ${MAX_CELL_TEXT})`);
    this.open(c, kind.text);
    this.out.uint(this.strings.id(value));
    this.fit(c, value.length);
  }

  boolean(c: number, value: boolean, kind: CellKind): void {
    this.open(c, kind.boolean);
    this.out.uint(value ? 1 : 0);
    this.fit(c, BOOLEAN_WIDTH);
  }

  cell(c: number, value: XlsxCell, kind: CellKind): void {
    if (typeof value === 'number') this.number(c, value, kind);
    else if (typeof value === 'string') this.text(c, value, kind);
    else if (typeof value === 'boolean') this.boolean(c, value, kind);
    else if (value instanceof Date) this.date(c, value.getTime(), kind);
  }

  /** The finished part: head (dimension, frozen pane, widths), rows, filter, tail. */
  finish(head: string, tail: string, deflater: Deflater): { data: Uint8Array } | { deflated: DeflatedPart | Promise<DeflatedPart> } {
    if (this.ref) this.closeRow();
    this.out.ascii(tail);
    const { out, pieces } = this;
    // Kept alive as the last writer (see lastWriter): it holds no buffer once finished.
    this.out = EMPTY_SINK;
    this.pieces = null;
    if (!pieces) {
      out.prepend(head);
      if (!releasesInput(deflater)) return { data: out.bytes() };
      // Deflated now, so that the next sheet (or workbook) writes into the same buffer.
      const deflated = deflater.deflate(out.bytes());
      if (!(deflated instanceof Promise)) giveBackSink(out);
      return { deflated };
    }
    pieces.put(this.piece, out.bytes());
    const first = new AsciiSink(head.length);
    first.ascii(head);
    pieces.put(0, first.bytes());
    return { deflated: pieces.finish() };
  }
}

const EMPTY_SINK = new AsciiSink(0);

/**
 * A sheet buffer kept for the next sheet: written, deflated at once by zlib (which copies it),
 * then free. Reusing it spares a zeroed allocation per sheet (the Trades sheet of a one-month
 * run needs about 170 KB) and keeps the memory being written warm in the cache. Sheets are
 * written synchronously, so no two use it at once; a sheet large enough to go in pieces uses
 * its own buffers. At most SPARE_MAX_BYTES are kept.
 */
let spareSink: AsciiSink | null = null;
const SPARE_MAX_BYTES = 4 * 1024 * 1024;

function takeSink(size: number, headroom: number): AsciiSink {
  const sink = spareSink;
  if (sink !== null && sink.capacity >= size + headroom) {
    spareSink = null;
    sink.reset(headroom);
    return sink;
  }
  return new AsciiSink(size, headroom);
}

function giveBackSink(sink: AsciiSink): void {
  if (sink.capacity > SPARE_MAX_BYTES) return;
  if (spareSink === null || sink.capacity > spareSink.capacity) spareSink = sink;
}

/**
 * The last writer used, kept alive (its buffers released). V8's optimized code for the writer
 * checks the hidden classes (maps) of the writer and its byte sink, and a class instance's map is
 * held only weakly (through map transitions): when a major GC between two runs found no instance
 * alive, the maps died and every writer function was thrown away and optimized again during the
 * next workbook ("weak objects"): measured, the first workbook after a major GC cost about twice
 * the CPU of the next one. An instance made at module load does not do: by the time a workbook is
 * written, V8 has moved the instances to other maps.
 */
let lastWriter: SheetWriter | null = null;
/** The last RepeatedValues made, kept alive for the same reason as lastWriter. */
let lastRepeated: RepeatedValues | null = null;

/** Columns, and data rows below the header. */
export function sheetSize(sheet: XlsxSheet): { columns: number; count: number } {
  if (sheet.records) return { columns: Math.max(sheet.headers.length, sheet.records.columns.length), count: sheet.records.items.length };
  const rows = sheet.rows ?? [];
  return { columns: rows.reduce((n, row) => Math.max(n, row.length), sheet.headers.length), count: rows.length };
}

/**
 * One worksheet part (all ASCII: text lives in the shared strings): its bytes, or for a large
 * sheet and a deflater that takes pieces, its compression already under way.
 *
 * The rows are written by functions of their own, and the head after them by another: V8
 * optimises a long loop while it runs (on-stack replacement) and keeps that code for the next
 * call, and code after the loop in the same function, compiled before it had ever run, met
 * sheets of other shapes there and left the kept code in every workbook from a process's
 * eleventh on (docs/PERFORMANCE.md, "Trading costs in instructions").
 */
export function sheetXml(sheet: XlsxSheet, styles: Styles, strings: SharedStrings, deflater: Deflater): { data: Uint8Array } | { deflated: DeflatedPart | Promise<DeflatedPart> } {
  const { columns, count } = sheetSize(sheet);
  const pieces = deflater.pieces && SheetWriter.pieced(1 + count, columns) ? deflater.pieces() : null;
  const writer = new SheetWriter(sheet.name, columns, 1 + count, strings, pieces);

  const kinds = new Map<string | null, CellKind>();
  const kindOf = (format: string | null): CellKind => {
    let kind = kinds.get(format);
    if (kind === undefined) {
      kind = cellKind(styles.styleOf(format), format);
      kinds.set(format, kind);
    }
    return kind;
  };
  const header = cellKind(1, null);
  const columnKinds = Array.from({ length: columns }, (_, c) => kindOf(sheet.columnFormats?.[c] ?? null));

  writer.row(1);
  sheet.headers.forEach((label, c) => writer.text(c, label, header));
  if (sheet.records) writeRecords(writer, sheet.records, columnKinds, count);
  else writeRows(writer, sheet.rows ?? [], sheet.rowFormats, columnKinds, kindOf, count);
  const part = writer.finish(sheetHead(sheet, writer.widths, columns, count), sheetTail(sheet, columns, count), deflater);
  lastWriter = writer;
  return part;
}

/** Data rows from records and column accessors (the Trades sheet). */
function writeRecords(writer: SheetWriter, records: XlsxRecords<unknown>, columnKinds: readonly CellKind[], count: number): void {
  const cells = records.columns;
  const repeated = cells.map((column, c) => (column.repeats ? new RepeatedValues(columnKinds[c]) : null));
  // One kept alive, like lastWriter (above, and why).
  lastRepeated = repeated.find((r) => r !== null) ?? lastRepeated;
  for (let r = 0; r < count; r++) {
    writer.row(r + 2);
    const record = records.items[r];
    for (let c = 0; c < cells.length; c++) {
      const column = cells[c];
      const value = column.value(record);
      if (value === null) continue;
      if (column.date) writer.date(c, value as number, columnKinds[c]);
      else if (typeof value === 'number' && repeated[c] !== null) writer.repeatedNumber(c, value, repeated[c]!);
      else writer.cell(c, value, columnKinds[c]);
    }
  }
}

/** Data rows given as arrays of cells, each row's format (rowFormats) winning over its columns'. */
function writeRows(
  writer: SheetWriter,
  rows: readonly (readonly XlsxCell[])[],
  rowFormats: readonly (string | null)[] | undefined,
  columnKinds: readonly CellKind[],
  kindOf: (format: string | null) => CellKind,
  count: number,
): void {
  for (let r = 0; r < count; r++) {
    const row = rows[r];
    const rowFormat = rowFormats?.[r];
    // Looked up at the row's first formatted cell, not before: a format's style number is
    // given at its first use, and a row of empty values must not take one.
    let rowKind: CellKind | null = null;
    writer.row(r + 2);
    for (let c = 0; c < row.length; c++) {
      const value = row[c];
      if (value === null || value === undefined) continue;
      if (rowFormat && c > 0) writer.cell(c, value, (rowKind ??= kindOf(rowFormat)));
      else writer.cell(c, value, columnKinds[c]);
    }
  }
}

/** What precedes the rows: the dimension, the frozen header, the column widths fitted to the cells. */
function sheetHead(sheet: XlsxSheet, cellWidths: readonly number[], columns: number, count: number): string {
  const widths = cellWidths.map((cellWidth, c) => {
    const width = Math.max((sheet.headers[c]?.length ?? 0) + 3, cellWidth ? cellWidth + 2 : 0);
    return Math.max(sheet.minWidth, Math.min(sheet.maxWidth, width));
  });
  const last = columns > 0 ? `${columnName(columns - 1)}${1 + count}` : 'A1';
  return (
    SHEET_HEAD +
    `<dimension ref="A1:${last}"/>` +
    SHEET_VIEWS +
    (columns > 0 ? `<cols>${widths.map((w, c) => `<col min="${c + 1}" max="${c + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '') +
    '<sheetData>'
  );
}

/** What follows the rows: the header's filter, the page margins. */
function sheetTail(sheet: XlsxSheet, columns: number, count: number): string {
  const filter = sheet.autoFilter && columns > 0 ? `<autoFilter ref="A1:${columnName(columns - 1)}${1 + count}"/>` : '';
  return `</sheetData>${filter}${SHEET_TAIL}`;
}
