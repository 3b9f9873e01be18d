// A result's workbook read back by core's scanner (src/node/own-workbook.ts) must give, row for row,
// the JSON text exceljs's reader gives (docs/report.md, "Reading a result back"), and must answer
// null, never a different reading, for anything bt's writer does not write: the caller then reads
// the file with exceljs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Excel from 'exceljs';
import { runBacktest, type BacktestRequest } from '@bt/core';
import { ownWorkbookText, readCandlesFile } from '@bt/core/node';
import { workbookRowsText } from '@bt/core/report';
import { zipParts } from '../src/report/zip.js';

const fixtures = join(import.meta.dirname, '../../../fixtures');

async function resultWorkbook(file: string, request: BacktestRequest): Promise<Uint8Array> {
  // The market files' times are UTC without an offset (fixtures/README.md).
  const { candles } = await readCandlesFile(join(fixtures, file), { symbol: request.symbol, utcOffset: 'UTC' });
  const result = await runBacktest(candles, request, { workbook: true, createdAt: Date.UTC(2026, 10, 29, 8, 30) });
  assert.ok(result.workbook, 'the run wrote a workbook');
  return result.workbook;
}

const COSTS = { spreadByHour: Array.from({ length: 24 }, (_, h) => (h < 7 ? 2.5 : h >= 21 ? 3 : 1.2)), commissionPips: 0.7, slippagePips: 0.5 };

const RUNS: Array<[string, string, BacktestRequest]> = [
  ['FVG pullback on two years of EURUSD H1', 'official/EURUSD_H1_2017-2018.csv', { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 }],
  ['impulsive FVG with spread by hour, commission and slippage', 'official/EURUSD_H1_2017-2018.csv', { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20, costs: COSTS }],
  ['order blocks with an EMA filter on gold', 'market/XAUUSD_H4.csv', { strategy: 'ob_pullback_pure_ema_simple', symbol: 'XAUUSD', slPips: 50, tp1Pips: 50, tp2Pips: 100 }],
  ['engulfing on the Dow Jones with costs', 'market/USA30IDXUSD_H1.csv', { strategy: 'englobante_entry', symbol: 'US30', slPips: 20, tp1Pips: 20, tp2Pips: 40, costs: { spreadPips: 2, commissionPips: 0.5 } }],
];

for (const [name, file, request] of RUNS) {
  test(`a result's workbook reads as exceljs reads it: ${name}`, { timeout: 120_000 }, async () => {
    const bytes = await resultWorkbook(file, request);
    const own = ownWorkbookText(bytes);
    assert.ok(own, 'the scanner knows the workbook bt wrote');
    const expected = await workbookRowsText(bytes);
    assert.deepEqual(own.map((s) => s.name), expected.map((s) => s.name));
    for (let i = 0; i < expected.length; i++) {
      assert.equal(own[i].width, expected[i].width, `${expected[i].name}: width`);
      assert.equal(own[i].rows.length, expected[i].rows.length, `${expected[i].name}: rows`);
      for (let r = 0; r < expected[i].rows.length; r++) assert.equal(own[i].rows[r], expected[i].rows[r], `${expected[i].name}, row ${r + 1}`);
    }
    const trades = own.find((s) => s.name === 'Trades');
    assert.ok(trades && trades.rows.length > 1, 'the run has trades to compare');
  });
}

test('a run without trades reads as exceljs reads it', async () => {
  const bytes = await resultWorkbook('official/EURUSD_H1_2017-2018.csv', { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20, from: Date.UTC(2030, 0, 1) });
  assert.deepEqual(ownWorkbookText(bytes), await workbookRowsText(bytes));
});

async function exceljsWorkbook(fill: (sheet: Excel.Worksheet) => void): Promise<Uint8Array> {
  const wb = new Excel.Workbook();
  fill(wb.addWorksheet('Trades'));
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** A ZIP's parts, inflated, in order. */
function zipPartsOf(bytes: Uint8Array): Array<{ name: string; data: Uint8Array }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Array<{ name: string; data: Uint8Array }> = [];
  for (let at = 0; at + 46 < bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const name = Buffer.from(bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true))).toString('utf8');
    const local = view.getUint32(at + 42, true);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + view.getUint32(at + 20, true));
    parts.push({ name, data: view.getUint16(at + 10, true) === 8 ? new Uint8Array(inflateRawSync(data)) : data });
  }
  return parts;
}

/** The workbook with one part's XML changed, zipped again by bt's writer. */
async function rewritePart(bytes: Uint8Array, name: string, change: (xml: string) => string): Promise<Uint8Array> {
  const parts = zipPartsOf(bytes).map((part) => (part.name === name ? { name, data: new TextEncoder().encode(change(Buffer.from(part.data).toString('utf8'))) } : part));
  return zipParts(parts, new Date(Date.UTC(2026, 10, 29)));
}

test('what bt does not write (a formula, rich text, an inline string, a built-in date format) is left to exceljs', async () => {
  const formula = await exceljsWorkbook((sheet) => {
    sheet.getCell('A1').value = 2;
    sheet.getCell('B1').value = { formula: 'A1*2', result: 4 };
  });
  const rich = await exceljsWorkbook((sheet) => {
    sheet.getCell('A1').value = { richText: [{ text: 'Ga' }, { text: 'gné', font: { bold: true } }] };
  });
  // bt's own workbook with one header cell written as an inline string (exceljs itself always writes shared strings).
  const bt = await resultWorkbook('official/EURUSD_H1_2017-2018.csv', { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 });
  const inline = await rewritePart(bt, 'xl/worksheets/sheet1.xml', (xml) => xml.replace(/ t="s"><v>\d+<\/v>/, ' t="inlineStr"><is><t>Gagné</t></is>'));
  assert.notDeepEqual(inline, bt);
  // Excel's built-in date format 14, which bt's writer never uses.
  const builtinDate = await exceljsWorkbook((sheet) => {
    sheet.getCell('A1').value = new Date(Date.UTC(2026, 10, 29));
    sheet.getCell('A1').numFmt = 'mm-dd-yy';
  });
  for (const [what, bytes] of [['formula', formula], ['rich text', rich], ['inline string', inline], ['built-in date format', builtinDate]] as const) {
    assert.equal(ownWorkbookText(bytes), null, what);
    await workbookRowsText(bytes);
  }
  // A date in a format written out, as bt writes its dates: read, the same as exceljs.
  const ownDate = await exceljsWorkbook((sheet) => {
    sheet.getCell('A1').value = new Date(Date.UTC(2026, 10, 29, 8, 30));
    sheet.getCell('A1').numFmt = 'yyyy-mm-dd hh:mm';
    sheet.getCell('B1').value = 1.25;
    sheet.getCell('C3').value = 'Perdu';
  });
  assert.deepEqual(ownWorkbookText(ownDate), await workbookRowsText(ownDate));
  assert.deepEqual(ownWorkbookText(ownDate)?.[0].rows[0], '["2026-11-29T08:30:00.000Z",1.25,null]');
  // The candle workbooks of the fixtures, written by other tools: either read exactly as exceljs reads them, or left to it.
  for (const file of ['official/EURUSD_H1_slice.xlsx', 'official/EURUSD_H1_slice_excel-dates.xlsx']) {
    const bytes = new Uint8Array(readFileSync(join(fixtures, file)));
    const own = ownWorkbookText(bytes);
    if (own !== null) assert.deepEqual(own, await workbookRowsText(bytes), file);
  }
});

/** The offset of a ZIP's central-directory entry for a part, and the end record's. */
function centralEntry(bytes: Uint8Array, part: string): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 46 < bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const length = view.getUint16(at + 28, true);
    if (Buffer.from(bytes.subarray(at + 46, at + 46 + length)).toString('utf8') === part) return at;
  }
  throw new Error(`no central entry for ${part}`);
}

test('broken, cut or lying ZIPs answer null, never a reading or a throw', async () => {
  const bytes = await resultWorkbook('official/EURUSD_H1_2017-2018.csv', { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 });
  assert.ok(ownWorkbookText(bytes));
  assert.equal(ownWorkbookText(new Uint8Array(0)), null, 'empty');
  assert.equal(ownWorkbookText(new TextEncoder().encode('Date,Open,High,Low,Close\n')), null, 'a CSV');
  for (const cut of [bytes.length - 1, Math.floor(bytes.length / 2), 30]) assert.equal(ownWorkbookText(bytes.subarray(0, cut)), null, `cut at ${cut}`);

  // The sheet's declared size one byte smaller, then larger, than what it inflates to.
  const at = centralEntry(bytes, 'xl/worksheets/sheet1.xml');
  const size = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + 24, true);
  for (const declared of [size - 1, size + 1, 0xfffffffe]) {
    const lying = new Uint8Array(bytes);
    new DataView(lying.buffer).setUint32(at + 24, declared, true);
    assert.equal(ownWorkbookText(lying), null, `declared ${declared} for ${size}`);
  }

  // Garbage in every byte of the sheet's compressed data: null or the same reading, never a throw.
  const sheetAt = centralEntry(bytes, 'xl/worksheets/sheet1.xml');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const local = view.getUint32(sheetAt + 42, true);
  const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const garbled = new Uint8Array(bytes);
  for (let i = dataStart + 10; i < dataStart + 200; i++) garbled[i] ^= 0x5a;
  assert.equal(ownWorkbookText(garbled), null, 'garbled deflate data');
});

test('a part that inflates past its declared size stops at the declared size (a ZIP bomb is not inflated)', async () => {
  // One part of 64 MiB of spaces whose ZIP entry declares 100 bytes.
  const bomb = { raw: deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 32)), crc: 0, size: 100 };
  const zip = await zipParts([{ name: 'xl/workbook.xml', deflated: bomb }], new Date(Date.UTC(2026, 10, 29)));
  const before = process.memoryUsage().arrayBuffers;
  assert.equal(ownWorkbookText(zip), null);
  // Not a timing: the inflated bytes were never held (64 MiB would show here).
  assert.ok(process.memoryUsage().arrayBuffers - before < 16 * 1024 * 1024);
});
