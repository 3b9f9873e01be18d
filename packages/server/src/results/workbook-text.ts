import { ownWorkbookText } from '@bt/core/node';
import { workbookReader, workbookRowsText, type WorkbookReader, type WorkbookRowsText } from '@bt/core/report';

/**
 * A result's workbook parsed on an engine thread and held by the API as JSON text, a string per
 * row (docs/server.md "Backtests, results and credits"): exceljs takes tens to hundreds of
 * milliseconds of CPU per workbook (438 ms for 10,000 trades, docs/PERFORMANCE.md), which must not
 * stop the event loop, and strings cross a thread as a copy of their bytes where a tree of cells
 * would be rebuilt value by value. A page parses only its own rows.
 */
export type WorkbookText = WorkbookRowsText;

/**
 * On the thread: every sheet's rows as JSON text. bt's own workbooks are read by core's scanner
 * (docs/report.md, "Reading a result back"), about ten times faster than exceljs (docs/PERFORMANCE.md, "Readers compared"); a workbook it
 * does not know (written by another tool, or by an older writer) is read by exceljs, as before.
 */
export async function workbookText(bytes: Uint8Array): Promise<WorkbookText> {
  return ownWorkbookText(bytes) ?? (await workbookRowsText(bytes));
}

/** In the API: core's reader over the text, each row parsed when a page or the meta asks for it. */
export function textWorkbookReader(text: WorkbookText): WorkbookReader {
  return workbookReader(text.map((sheet) => ({ name: sheet.name, width: sheet.width, length: sheet.rows.length, row: (index: number) => JSON.parse(sheet.rows[index]) })));
}
