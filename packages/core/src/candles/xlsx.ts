// Workbooks through exceljs (loaded on first use so the CSV path stays light in the browser).
// The first worksheet is turned into CSV text, row for row, and read by the CSV reader: the same
// header rules and checks apply, and problems point at Excel row numbers.
import type { CellValue, Workbook } from 'exceljs';
import { readCandlesCsv, type CandleFile } from './csv-read.js';
import { MAX_COLUMNS, OFFICIAL_HEADER } from './headers.js';
import { DAY_MS, formatClock, formatDate, civilFromDays, formatCandleTime } from './datetime.js';
import { normalizeCandleOptions, type ReadCandlesOptions } from './options.js';
import { CandleFileError, type CandleProblem } from './problems.js';
import type { Candles } from './types.js';
import { checkedSheetName, sheetNameFromSymbol } from './xlsx-sheet-name.js';

async function newWorkbook(): Promise<Workbook> {
  const module = await import('exceljs');
  const ExcelJS = (module as unknown as { default?: typeof module }).default ?? module;
  return new ExcelJS.Workbook();
}

/** An Excel date cell has no time zone: its wall-clock fields, as `YYYY-MM-DD HH:MM:SS[.mmm]`. */
function excelDateText(date: Date): string {
  const ms = date.getTime();
  const days = Math.floor(ms / DAY_MS);
  const [y, m, d] = civilFromDays(days);
  return `${formatDate(y, m, d)} ${formatClock(ms - days * DAY_MS)}`;
}

function cellText(value: CellValue, onDate: (d: Date) => string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return onDate(value);
  if (typeof value === 'object') {
    if ('result' in value) return cellText((value as { result?: CellValue }).result ?? null, onDate);
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String((value as { text: unknown }).text);
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function asRows(problems: readonly CandleProblem[]): CandleProblem[] {
  return problems.map((p) => ({ ...p, message: p.message.replace(/^line (\d+)/, 'row $1') }));
}

/** Reads the first worksheet of an .xlsx workbook; Excel date cells are read as UTC unless utcOffset says otherwise. */
export async function readCandlesXlsx(input: Uint8Array | ArrayBuffer, options: ReadCandlesOptions = {}): Promise<CandleFile> {
  const opts = normalizeCandleOptions(options);
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const workbook = await newWorkbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new CandleFileError([{ code: 'empty_file', line: 1, message: `row 1: not a readable .xlsx workbook (${(error as Error).message})`, fix: 'save the workbook again as .xlsx (Excel Workbook)' }], 0, opts.file);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet || sheet.rowCount === 0) {
    throw new CandleFileError([{ code: 'empty_file', line: 1, message: 'row 1: the first worksheet is empty', fix: 'put the header Datetime,Open,High,Low,Close,Volume in row 1 of the first worksheet and one candle per row below' }], 0, opts.file);
  }
  let dateCells = 0;
  let firstDateRow = 0;
  const onDate = (row: number) => (d: Date) => {
    if (dateCells++ === 0) firstDateRow = row;
    // Without a stated offset, Excel's zone-less dates are taken as UTC (and the user is told).
    return opts.utcOffsetMinutes === undefined ? `${excelDateText(d)}+00:00` : excelDateText(d);
  };
  // Each row's values by column (a sparse array), and the widest row: the sheet's own column
  // count also counts styled empty cells, and getCell makes every cell it is asked for, so one
  // stray cell in column XFD of a 500 KB workbook made 16,384 cells per row and ran out of memory.
  const values: CellValue[][] = [];
  let columns = 0;
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r).values as CellValue[];
    values.push(row);
    columns = Math.max(columns, row.length - 1);
  }
  if (columns > MAX_COLUMNS) {
    const widest = values.findIndex((row) => row.length - 1 === columns) + 1;
    throw new CandleFileError([{
      code: 'too_many_columns', line: widest, value: String(columns),
      message: `row ${widest}: the first worksheet has values in ${columns} columns; bt reads at most ${MAX_COLUMNS}`,
      fix: `keep ${OFFICIAL_HEADER.join(',')} and the indicator columns you need (at most ${MAX_COLUMNS} in all), and clear the cells to their right`,
    }], 0, opts.file);
  }
  const lines: string[] = [];
  values.forEach((row, k) => {
    const cells: string[] = [];
    for (let c = 1; c <= columns; c++) cells.push(csvField(cellText(row[c] ?? null, onDate(k + 1)).trim()));
    lines.push(cells.every((c) => c === '') ? '' : cells.join(','));
  });
  let loaded: CandleFile;
  try {
    loaded = readCandlesCsv(lines.join('\n'), options);
  } catch (error) {
    if (error instanceof CandleFileError) throw new CandleFileError(asRows(error.problems), error.omitted, error.file);
    throw error;
  }
  const warnings = asRows(loaded.warnings);
  if (dateCells > 0 && opts.utcOffsetMinutes === undefined) {
    warnings.push({
      code: 'excel_dates_as_utc', line: firstDateRow,
      message: `row ${firstDateRow}: ${dateCells} Excel date cell${dateCells === 1 ? '' : 's'} carry no time zone and ${dateCells === 1 ? 'was' : 'were'} read as UTC`,
      fix: 'if the dates are not UTC, state their offset (utcOffset option, CLI --utc-offset), or write them as text with +00:00',
    });
  }
  return { ...loaded, warnings };
}

export interface WriteXlsxOptions {
  /** `text` (default) writes the official `YYYY-MM-DD HH:MM:SS+00:00` strings; `excel` writes date cells holding UTC. */
  dates?: 'text' | 'excel';
  /** Worksheet name, refused when Excel would refuse it (default: the symbol made valid, else `Candles`). */
  sheetName?: string;
}

/** An .xlsx workbook with one worksheet in the official column order. */
export async function candlesToXlsx(candles: Candles, options: WriteXlsxOptions = {}): Promise<Uint8Array> {
  const { dates = 'text' } = options;
  if (dates !== 'text' && dates !== 'excel') throw new Error(`invalid dates: ${JSON.stringify(dates)} (expected text or excel)`);
  const sheetName = options.sheetName === undefined ? sheetNameFromSymbol(candles.symbol) : checkedSheetName(options.sheetName);
  const workbook = await newWorkbook();
  // Dated by the data, not the clock: the same candles give the same workbook properties.
  const stamp = new Date(candles.length ? candles.time[candles.length - 1] : 0);
  workbook.created = stamp;
  workbook.modified = stamp;
  const sheet = workbook.addWorksheet(sheetName);
  const extraNames = Object.keys(candles.extra);
  sheet.addRow(['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume', ...extraNames]);
  const { time, open, high, low, close, volume } = candles;
  for (let i = 0; i < candles.length; i++) {
    const extra = extraNames.map((n) => {
      const v = candles.extra[n][i];
      return v === v ? v : null;
    });
    sheet.addRow([dates === 'excel' ? new Date(time[i]) : formatCandleTime(time[i]), open[i], high[i], low[i], close[i], volume[i], ...extra]);
  }
  if (dates === 'excel') sheet.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm:ss';
  sheet.getColumn(1).width = 26;
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
