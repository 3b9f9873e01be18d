// A workbook read back (bt report, the server's result pages) is a rectangle of cells per sheet:
// one far-right cell must not make every row that wide in memory (src/report/reader.ts matrix).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Excel from 'exceljs';
import { MAX_SHEET_CELLS, openWorkbook, readWorkbookMeta, readWorkbookSheet, workbookRows } from '@bt/core/report';

async function workbook(fill: (sheet: Excel.Worksheet) => void): Promise<Uint8Array> {
  const wb = new Excel.Workbook();
  fill(wb.addWorksheet('Trades'));
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

// Without the budget these reads succeed (a 262 MB rectangle of nulls), so each refusal shows the check
// ran before the rectangle was built. No wall-clock bound: exceljs loading this file takes seconds of
// CPU, many more on a shared machine, and speed is the benchmarks' business (docs/PERFORMANCE.md).
test('a sheet whose rows × widest row pass the cell budget is refused, naming it', { timeout: 300_000 }, async () => {
  // One value in column XFD (16,384) on each of 2,000 rows: 32.8 million cells as a rectangle.
  const bytes = await workbook((sheet) => {
    sheet.getCell(1, 1).value = 'id';
    for (let r = 2; r <= 2000; r++) sheet.getCell(r, 16_384).value = r;
  });
  assert.ok(bytes.length < 100_000, `${bytes.length} bytes`);
  assert.ok(16_384 * 2000 > MAX_SHEET_CELLS);
  const refused = { message: 'invalid workbook: sheet "Trades" spans 2,000 rows by 16,384 columns, more than the 20,000,000 cells bt reads' };
  await assert.rejects(readWorkbookSheet(bytes, 'Trades', { limit: 2 }), refused);
  await assert.rejects(workbookRows(bytes), refused);
  await assert.rejects(readWorkbookMeta(bytes), refused);
});

test('under the budget, a sparse sheet reads as its rectangle: empty places null, trailing empty rows dropped', async () => {
  const bytes = await workbook((sheet) => {
    sheet.getCell(1, 1).value = 'metric';
    sheet.getCell(1, 2).value = 'value';
    sheet.getCell(2, 1).value = 'trades';
    sheet.getCell(2, 5).value = 12;
    sheet.getCell(4, 3).value = true;
    sheet.getRow(6).height = 30; // formatted, without a value
  });
  const reader = await openWorkbook(bytes);
  const page = reader.sheet('Trades', { useHeader: false });
  assert.deepEqual(page.headers, ['A', 'B', 'C', 'D', 'E']);
  assert.deepEqual(page.rows, [
    ['metric', 'value', null, null, null],
    ['trades', null, null, null, 12],
    [null, null, null, null, null],
    [null, null, true, null, null],
  ]);
  assert.equal(page.total, 4);
});
