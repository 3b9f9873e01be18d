import { walkZip, ZipRefusal } from './zip-guard.js';

export interface XlsxBudget {
  maxInflatedBytes: number;
  /** Rows across the workbook's worksheets. */
  maxRows: number;
}

/** Thrown when a workbook has more rows than the budget allows (counted while inflating). */
export class XlsxTooManyRows extends Error {
  constructor(readonly maxRows: number) {
    super(`more than ${maxRows} rows`);
    this.name = 'XlsxTooManyRows';
  }
}

const ROW_TAG = Buffer.from('<row');
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;

/**
 * Checks an .xlsx before any spreadsheet library inflates it whole: at most 64 parts, the
 * inflated size within budget, and the worksheets' `<row` elements counted as they stream by
 * (a tag cut between two chunks is found through the few bytes kept from the previous one).
 */
export async function checkXlsx(bytes: Uint8Array, budget: XlsxBudget): Promise<void> {
  let rows = 0;
  let tail: Buffer = Buffer.alloc(0);
  let current = '';
  await walkZip(bytes, { maxEntries: 64, maxInflatedBytes: budget.maxInflatedBytes }, (entry, chunk) => {
    if (!WORKSHEET.test(entry.fileName)) return;
    if (entry.fileName !== current) {
      current = entry.fileName;
      tail = Buffer.alloc(0);
    }
    const window: Buffer = tail.length ? Buffer.concat([tail, chunk]) : chunk;
    for (let at = window.indexOf(ROW_TAG); at >= 0; at = window.indexOf(ROW_TAG, at + ROW_TAG.length)) {
      // Only `<row ` / `<row>`: `<rowBreaks` and friends are not rows.
      const next = window[at + ROW_TAG.length];
      if (next === undefined || next === 0x20 || next === 0x3e || next === 0x09 || next === 0x0a || next === 0x0d) {
        if (next === undefined) break; // decided with the next chunk
        if (++rows > budget.maxRows) throw new XlsxTooManyRows(budget.maxRows);
      }
    }
    tail = window.subarray(Math.max(0, window.length - ROW_TAG.length));
  });
}

export { ZipRefusal };
