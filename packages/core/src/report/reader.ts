// exceljs is loaded on the first read, not with the module: it is large (about a second to load on
// a busy machine) and most users of @bt/core/report (backtests writing workbooks) never read one.
import type ExcelJS from 'exceljs';

/** A cell as the readers return it: JSON-ready, dates as ISO 8601 UTC strings. */
export type SheetCell = string | number | boolean | null;

export interface WorkbookMeta {
  /** Sheets in workbook order: data rows (header excluded) and header names. */
  readonly sheets: ReadonlyArray<{ readonly name: string; readonly rows: number; readonly columns: string[] }>;
}

export interface SheetPage {
  readonly sheet: string;
  /** Header names; spreadsheet letters (A, B, ...) when useHeader is false. */
  readonly headers: string[];
  readonly rows: SheetCell[][];
  /** Data rows in the whole sheet (the header row counts as data when useHeader is false). */
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
}

export interface SheetPageOptions {
  readonly offset?: number | string;
  readonly limit?: number | string;
  /** true: the first row is the header; false: the first row is row 0 of the data. Query strings 'true'/'false'/'1'/'0' accepted. */
  readonly useHeader?: boolean | string;
}

export const DEFAULT_SHEET_LIMIT = 200;
export const MAX_SHEET_LIMIT = 10_000;

/** Thrown when a sheet is not in the workbook; carries the names that are (the server answers 404). */
export class WorkbookSheetNotFoundError extends Error {
  readonly sheet: string;
  readonly sheets: readonly string[];
  constructor(sheet: string, sheets: readonly string[]) {
    super(`unknown sheet: ${JSON.stringify(sheet)} (sheets: ${sheets.join(', ') || 'none'})`);
    this.name = 'WorkbookSheetNotFoundError';
    this.sheet = sheet;
    this.sheets = sheets;
  }
}

async function load(bytes: Uint8Array | ArrayBuffer): Promise<ExcelJS.Workbook> {
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  const data = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  try {
    // exceljs types ask for a Buffer; JSZip underneath reads any Uint8Array.
    await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch (error) {
    throw new Error(`invalid workbook: ${(error as Error).message}`);
  }
  return workbook;
}

function plain(value: ExcelJS.CellValue): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value || 'formula' in value || 'sharedFormula' in value) return plain((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('text' in value) return plain((value as { text: ExcelJS.CellValue }).text);
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

/**
 * The most cells a sheet's rectangle (rows × its widest row) may hold when read: bt's own Trades
 * sheets are about 40 columns, so this is 500,000 trades, more than exceljs itself can load. One
 * value in column XFD on each of 20,000 rows (a 117 KB file) made a rectangle of 330 million
 * cells, each an exceljs cell object: bt report ran out of memory after three minutes.
 */
export const MAX_SHEET_CELLS = 20_000_000;

/** The sheet as a rectangle of plain cells, one array per row (empty rows kept), trailing empties trimmed. */
function matrix(sheet: ExcelJS.Worksheet): SheetCell[][] {
  const width = sheet.columnCount;
  const rows: SheetCell[][] = [];
  const last = sheet.rowCount;
  if (width * last > MAX_SHEET_CELLS) {
    throw new Error(`invalid workbook: sheet ${JSON.stringify(sheet.name)} spans ${last.toLocaleString('en-US')} rows by ${width.toLocaleString('en-US')} columns, more than the ${MAX_SHEET_CELLS.toLocaleString('en-US')} cells bt reads`);
  }
  for (let r = 1; r <= last; r++) {
    const cells: SheetCell[] = new Array<SheetCell>(width).fill(null);
    // The cells the row has, not getRow/getCell, which create a row and a cell object for every
    // empty place they are asked about.
    sheet.findRow(r)?.eachCell((cell, c) => {
      if (c <= width) cells[c - 1] = plain(cell.value);
    });
    rows.push(cells);
  }
  // rowCount counts formatted-but-empty rows too; they are not data.
  while (rows.length > 0 && rows[rows.length - 1].every((cell) => cell === null)) rows.pop();
  return rows;
}

function headerNames(row: SheetCell[] | undefined): string[] {
  return (row ?? []).map((cell) => (cell === null ? '' : String(cell)));
}

function findSheet(sheets: readonly SheetRows[], name: string): SheetRows {
  const found = sheets.find((s) => s.name === name) ?? sheets.find((s) => s.name.toLowerCase() === String(name).toLowerCase());
  if (!found) throw new WorkbookSheetNotFoundError(name, sheets.map((s) => s.name));
  return found;
}

function integer(value: number | string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`invalid ${name}: ${value} (an integer ${min}..${max})`);
  return n;
}

function flag(value: boolean | string | undefined): boolean {
  if (value === undefined || value === '') return true;
  if (typeof value === 'boolean') return value;
  const text = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  throw new Error(`invalid useHeader: ${value} (true or false)`);
}

/** A, B, ..., Z, AA, AB ... */
function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/**
 * A parsed workbook that answers meta and page requests without parsing again: exceljs reads a
 * whole workbook at once (hundreds of ms for thousands of trades), so a server that serves
 * several tab clicks on one result should keep this object (e.g. an LRU keyed by folder).
 */
export interface WorkbookReader {
  readonly sheetNames: readonly string[];
  meta(): WorkbookMeta;
  sheet(name: string, options?: SheetPageOptions): SheetPage;
}

/**
 * A sheet's rows as a reader pages them: `row(0)` is the header, `width` the sheet's column count
 * (the letters A, B, ... of a page read without header). Rows may be held in another form than
 * cells (a server keeps them as JSON text made on a worker thread) and read only when paged.
 */
export interface SheetRows {
  readonly name: string;
  readonly width: number;
  readonly length: number;
  row(index: number): SheetCell[];
}

/** The whole workbook as plain cells, every sheet at once (for a thread that parses it for another). */
export async function workbookRows(bytes: Uint8Array | ArrayBuffer): Promise<Array<{ name: string; width: number; rows: SheetCell[][] }>> {
  const workbook = await load(bytes);
  return workbook.worksheets.map((worksheet) => ({ name: worksheet.name, width: worksheet.columnCount, rows: matrix(worksheet) }));
}

/**
 * Each sheet's rows as JSON text, a string per row: what a thread hands back of a workbook
 * (strings cross a thread as one copy of their bytes; docs/report.md, "Reading a result back").
 */
export type WorkbookRowsText = Array<{ name: string; width: number; rows: string[] }>;

/** `workbookRows` as JSON text per row: the reading of any workbook (core/node's `ownWorkbookText` reads bt's own faster). */
export async function workbookRowsText(bytes: Uint8Array | ArrayBuffer): Promise<WorkbookRowsText> {
  return (await workbookRows(bytes)).map((sheet) => ({ name: sheet.name, width: sheet.width, rows: sheet.rows.map((row) => JSON.stringify(row)) }));
}

/** Meta and pages over sheets' rows: the rules of every workbook reader (sheet names, paging, header). */
export function workbookReader(sheets: readonly SheetRows[]): WorkbookReader {
  return {
    sheetNames: sheets.map((s) => s.name),
    meta: () => ({
      sheets: sheets.map((sheet) => ({ name: sheet.name, rows: Math.max(0, sheet.length - 1), columns: headerNames(sheet.length > 0 ? sheet.row(0) : undefined) })),
    }),
    sheet: (name, options = {}) => {
      const offset = integer(options.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = integer(options.limit, 'limit', DEFAULT_SHEET_LIMIT, 1, MAX_SHEET_LIMIT);
      const useHeader = flag(options.useHeader);
      const sheet = findSheet(sheets, name);
      const headers = useHeader ? headerNames(sheet.length > 0 ? sheet.row(0) : undefined) : Array.from({ length: sheet.width }, (_, c) => columnLetter(c));
      const first = useHeader ? 1 : 0;
      const total = Math.max(0, sheet.length - first);
      const rows: SheetCell[][] = [];
      for (let i = first + offset; i < Math.min(sheet.length, first + offset + limit); i++) rows.push(sheet.row(i));
      return { sheet: sheet.name, headers, rows, total, offset, limit };
    },
  };
}

export async function openWorkbook(bytes: Uint8Array | ArrayBuffer): Promise<WorkbookReader> {
  const workbook = await load(bytes);
  // Each sheet's cells are read from exceljs's model the first time the sheet is asked for.
  return workbookReader(
    workbook.worksheets.map((worksheet) => {
      let cells: SheetCell[][] | null = null;
      const all = () => (cells ??= matrix(worksheet));
      return {
        name: worksheet.name,
        width: worksheet.columnCount,
        get length() {
          return all().length;
        },
        row: (index: number) => all()[index],
      };
    }),
  );
}

/** Sheet names, data-row counts and header names of a workbook (the server's GET /xlsx/meta). */
export async function readWorkbookMeta(bytes: Uint8Array | ArrayBuffer): Promise<WorkbookMeta> {
  return (await openWorkbook(bytes)).meta();
}

/**
 * One page of a sheet (the server's GET /xlsx/sheet): headers, rows [offset, offset+limit) as
 * arrays of plain cells, and the total. Config comes back as [metric, value] rows.
 */
export async function readWorkbookSheet(bytes: Uint8Array | ArrayBuffer, sheet: string, options: SheetPageOptions = {}): Promise<SheetPage> {
  // Paging options are checked before the (slow) parse so a bad request fails fast.
  integer(options.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  integer(options.limit, 'limit', DEFAULT_SHEET_LIMIT, 1, MAX_SHEET_LIMIT);
  flag(options.useHeader);
  return (await openWorkbook(bytes)).sheet(sheet, options);
}
