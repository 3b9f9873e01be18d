// `bt report FILE.xlsx`: core's workbook reader (exceljs), sheets printed with the display rules.
import { checkWorkbookFile, readUserFile } from '@bt/core/node';
import { MAX_SHEET_LIMIT, openWorkbook, WorkbookSheetNotFoundError, type SheetPage, type WorkbookReader } from '@bt/core/report';
import { fileError, quoted, RunError, UsageError } from '../errors.js';
import { count, jsonHeader, print, printJson, renderTable, styles } from '../output.js';
import { isMetricSheet, sheetText } from '../sheet-text.js';

/** The flags of the command (commands/report.ts declares them). */
export interface ReportFlags {
  sheet?: string;
  json?: boolean;
  limit: string;
  offset: string;
}

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || n < min || n > max) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a whole number from ${min} to ${max})`);
  return n;
}

export async function reportCommand(path: string, flags: ReportFlags): Promise<void> {
  const offset = wholeNumber('--offset', flags.offset, 0, Number.MAX_SAFE_INTEGER);
  const limit = wholeNumber('--limit', flags.limit, 1, MAX_SHEET_LIMIT);
  let bytes: Uint8Array;
  try {
    bytes = await readUserFile(path);
    await checkWorkbookFile(path, bytes);
  } catch (error) {
    throw fileError(path, error);
  }
  let reader: WorkbookReader;
  // An .xlsx file is a zip archive (it starts "PK\x03\x04"); anything else got the zip library's
  // sentence and its web address ("Can't find end of central directory : is this a zip file ? ...").
  const zip = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (!zip) throw new RunError(`${path}: invalid workbook: ${bytes.length === 0 ? 'the file is empty' : 'not a zip archive, as an .xlsx workbook is (a CSV or another file renamed?)'}`);
  try {
    reader = await openWorkbook(bytes);
  } catch (error) {
    throw new RunError(`${path}: ${(error as Error).message}`);
  }
  let pages: SheetPage[];
  try {
    const names = flags.sheet !== undefined ? [flags.sheet] : reader.sheetNames;
    pages = names.map((name) => reader.sheet(name, { offset, limit }));
  } catch (error) {
    if (error instanceof WorkbookSheetNotFoundError) throw new UsageError(`invalid --sheet: ${error.message.replace(/^unknown sheet: /, '')}`);
    throw new RunError(`${path}: ${(error as Error).message}`);
  }
  if (flags.json) {
    printJson({ ...jsonHeader('report'), file: path, sheets: pages });
    return;
  }
  const s = styles();
  pages.forEach((page, i) => {
    if (i > 0) print('');
    print(s.bold(`${page.sheet}`) + s.dim(` (${count(page.total)} row${page.total === 1 ? '' : 's'})`));
    const text = sheetText({ name: page.sheet, headers: page.headers, rows: page.rows });
    const metric = isMetricSheet(page.headers);
    // Config values are mostly text (labels, rules): left-aligned; the other metric sheets hold numbers.
    const config = page.headers[0] === 'metric';
    print(renderTable(text.headers, text.rows, { header: s.dim, indent: '  ', ...(metric ? { align: text.headers.map((_, c) => (c === 0 || config ? 'left' : 'right')) } : {}) }));
    const shown = page.offset + page.rows.length;
    if (shown < page.total) print(s.dim(`  … rows ${page.offset + 1}-${shown} of ${count(page.total)} (--offset ${shown} for more)`));
  });
}
