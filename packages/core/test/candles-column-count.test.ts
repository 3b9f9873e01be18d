import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CandleFileError, MAX_CANDLE_COLUMNS, readCandles, readCandlesCsv } from '@bt/core/candles';

const H = 'Datetime,Open,High,Low,Close,Volume';
const refusal = (input: string) => {
  try {
    readCandlesCsv(input);
  } catch (error) {
    return error;
  }
  return assert.fail('the file loaded');
};

/** What `work` returns, and how many times Array.prototype.push was called meanwhile. */
function countingPushes<T>(work: () => T): { result: T; pushes: number } {
  const push = Array.prototype.push;
  let pushes = 0;
  Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
    pushes++;
    return push.apply(this, items);
  };
  try {
    return { result: work(), pushes };
  } finally {
    Array.prototype.push = push;
  }
}

test('a header of a million columns is the too_many_columns problem, not a stack overflow', () => {
  // Repeated names (a million duplicate_column problems), empty names (a million dropped-column
  // warnings) and distinct names: each was spread as arguments until the stack overflowed.
  for (const header of [H + ',X'.repeat(1_000_000), H + ','.repeat(1_000_000), H + Array.from({ length: 300_000 }, (_, i) => `,X${i}`).join('')]) {
    const error = refusal(`${header}\n2024-01-01 00:00:00+00:00,1,2,0.5,1.5,10\n`);
    assert.ok(error instanceof CandleFileError, String(error));
    assert.deepEqual(error.problems.map((p) => [p.code, p.line, p.value]), [['too_many_columns', 1, String(header.split(',').length)]]);
    assert.match(error.problems[0].message, /^line 1: the header has \d+ columns; bt reads at most 256$/);
  }
});

test('the cap holds through the byte entry point (uploads), which detects the container first', async () => {
  const header = [H, ...Array.from({ length: MAX_CANDLE_COLUMNS - 5 }, (_, i) => `E${i}`)].join(',');
  await assert.rejects(readCandles(new TextEncoder().encode(`${header}\n`)), (e: unknown) => e instanceof CandleFileError && e.problems[0].code === 'too_many_columns');
});

test('a file of exactly the cap reads every column, on the fast path and on the slow one', () => {
  const extras = MAX_CANDLE_COLUMNS - 6;
  const header = [H, ...Array.from({ length: extras }, (_, i) => `E${i}`)].join(',');
  const row = (time: string, last: string) => [time, '1', '2', '0.5', '1.5', '10', ...Array.from({ length: extras - 1 }, () => '3'), last].join(',');
  // The quoted time sends line 3 down the general path, which holds every field's bounds.
  const loaded = readCandlesCsv(`${header}\n${row('2024-01-01 00:00:00+00:00', '7')}\n${row('"2024-01-01 01:00:00+00:00"', '8')}\n`);
  assert.deepEqual(Array.from(loaded.candles.extra[`E${extras - 1}`]), [7, 8]);
  const bad = refusal(`${header}\n${row('2024-01-01 00:00:00+00:00', '7')}\n${row('2024-01-01 01:00:00+00:00', 'abc')}\n`);
  assert.ok(bad instanceof CandleFileError);
  assert.deepEqual(bad.problems.map((p) => [p.code, p.line, p.column, p.value]), [['non_numeric', 3, `E${extras - 1}`, 'abc']]);
});

test('a workbook with one value in column XFD is too_many_columns at its row, not a reader out of memory', async () => {
  const { candlesToXlsx, candlesFromColumns, readCandlesXlsx } = await import('@bt/core/candles');
  const module = await import('exceljs');
  const ExcelJS = (module as unknown as { default?: typeof module }).default ?? module;
  const time = Float64Array.from({ length: 20_000 }, (_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000);
  const ones = () => Float64Array.from(time, () => 1);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await candlesToXlsx(candlesFromColumns({ time, open: ones(), high: ones(), low: ones(), close: ones(), volume: ones() }))) as unknown as ArrayBuffer);
  workbook.worksheets[0].getRow(3).getCell(16_384).value = 'x';
  const wide = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
  // Every row used to get 16,384 cells made for it: 20,000 rows ran out of memory.
  await assert.rejects(readCandlesXlsx(wide), (e: unknown) => {
    assert.ok(e instanceof CandleFileError, String(e));
    assert.deepEqual(e.problems.map((p) => [p.code, p.line, p.value, p.message]), [
      ['too_many_columns', 3, '16384', 'row 3: the first worksheet has values in 16384 columns; bt reads at most 256'],
    ]);
    return true;
  });
});

test('millions of separators in the header or a row are counted, not split into millions of fields', () => {
  const commas = ','.repeat(5_000_000);
  for (const [csv, want] of [
    [`${H}${commas}\n`, [['too_many_columns', 1, '5000006']]],
    [`Datetime;Open${';'.repeat(5_000_000)}\n`, [['too_many_columns', 1, '5000002']]],
    [`${H}\n2024-01-01 00:00:00+00:00,1,2,0.5,1.5,10\n2024-01-01 01:00:00+00:00,1,2,0.5,1.5,10${commas}\n`, [['wrong_field_count', 3, '5000006']]],
    // The first data line is also read for the symbol row and the extra columns' kind.
    [`${H}\n2024-01-01 00:00:00+00:00,1,2,0.5,1.5,10${commas}\n`, [['wrong_field_count', 2, '5000006']]],
  ] as const) {
    // Splitting them took 7 s and 600 MB for the header (20 MB of commas ran a 768 MB worker out):
    // a field range is pushed per separator split. Counted, not timed (a bound in milliseconds
    // failed at random on the loaded CI machine).
    const { result: error, pushes } = countingPushes(() => refusal(csv));
    assert.ok(error instanceof CandleFileError, String(error));
    assert.deepEqual(error.problems.map((p) => [p.code, p.line, p.value]), want);
    assert.ok(pushes < 10_000, `${pushes} values pushed for a line of 5,000,000 separators`);
  }
});
