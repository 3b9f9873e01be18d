// Every real file in fixtures/ loads with the right row count and timeframe, and its values
// equal what a naive, independent reading (split + parseFloat + Date.parse) gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadCandlesOptions } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');

interface RealFile {
  file: string;
  options?: ReadCandlesOptions;
  rows: number;
  timeframe: string | undefined;
  format: string;
  extra?: string[];
  /** Independent reading: [ms, open, high, low, close, volume] per row. */
  oracle: () => number[][];
}

function csvRows(file: string, toMs: (cells: string[]) => number, prices: number[], skip = 1, sep: string | RegExp = ','): number[][] {
  const lines = readFileSync(join(fixtures, file), 'utf8').split(/\r?\n/).slice(skip).filter((l) => l !== '');
  return lines.map((line) => {
    const cells = line.split(sep);
    return [toMs(cells), ...prices.map((k) => parseFloat(cells[k]))];
  });
}
const isoUtc = (text: string, offset = 'Z') => Date.parse(`${text.replace(' ', 'T')}${text.length === 10 ? 'T00:00:00' : ''}${offset}`);
const json = (file: string) => () => (JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as number[][]).map((r) => r.slice(0, 6));

const files: RealFile[] = [
  { file: 'EURUSD.csv', options: { utcOffset: 'UTC' }, rows: 5000, timeframe: 'H1', format: 'backtesting', oracle: () => csvRows('EURUSD.csv', (c) => isoUtc(c[0]), [1, 2, 3, 4, 5]) },
  { file: 'GOOG.csv', options: { utcOffset: 'UTC' }, rows: 2148, timeframe: 'D1', format: 'backtesting', oracle: () => csvRows('GOOG.csv', (c) => isoUtc(c[0]), [1, 2, 3, 4, 5]) },
  // Monthly candles: the most common step (31 days) is no product timeframe; it loads without one.
  { file: 'BTCUSD.csv', options: { utcOffset: 'UTC' }, rows: 156, timeframe: undefined, format: 'backtesting', oracle: () => csvRows('BTCUSD.csv', (c) => isoUtc(c[0]), [1, 2, 3, 4, 5]) },
  // MetaTrader broker time; +02:00 is the winter offset of such servers (see fixtures/README.md).
  { file: 'smc/EURUSD_15M.csv', options: { utcOffset: '+02:00' }, rows: 24424, timeframe: 'M15', format: 'metatrader', extra: ['Tickvol', 'Spread'],
    oracle: () => csvRows('smc/EURUSD_15M.csv', (c) => isoUtc(c[0].replace(/\./g, '-'), '+02:00'), [1, 2, 3, 4, 6]) },
  { file: 'backtrader/2006-min-005.txt', options: { utcOffset: '+01:00' }, rows: 2142, timeframe: 'M5', format: 'backtrader', extra: ['OpenInterest'],
    oracle: () => csvRows('backtrader/2006-min-005.txt', (c) => isoUtc(`${c[0]} ${c[1]}`, '+01:00'), [2, 3, 4, 5, 6]) },
  { file: 'backtrader/2006-day-001.txt', options: { utcOffset: '+00:00' }, rows: 255, timeframe: 'D1', format: 'backtrader', extra: ['OpenInterest'],
    oracle: () => csvRows('backtrader/2006-day-001.txt', (c) => isoUtc(c[0]), [1, 2, 3, 4, 5]) },
  { file: 'freqtrade/UNITTEST_BTC-1m.json', rows: 13681, timeframe: 'M1', format: 'freqtrade', oracle: json('freqtrade/UNITTEST_BTC-1m.json') },
  { file: 'freqtrade/ETH_BTC-5m.json', rows: 5760, timeframe: 'M5', format: 'freqtrade', oracle: json('freqtrade/ETH_BTC-5m.json') },
  { file: 'freqtrade/UNITTEST_BTC-30m.json', rows: 1920, timeframe: 'M30', format: 'freqtrade', oracle: json('freqtrade/UNITTEST_BTC-30m.json') },
  { file: 'freqtrade/XRP_ETH-1m.json', rows: 3560, timeframe: 'M1', format: 'freqtrade', oracle: json('freqtrade/XRP_ETH-1m.json') },
  { file: 'freqtrade/XRP_ETH-5m.json', rows: 712, timeframe: 'M5', format: 'freqtrade', oracle: json('freqtrade/XRP_ETH-5m.json') },
  { file: 'freqtrade/XRP_USDT_USDT-1h-futures.json', rows: 100, timeframe: 'H1', format: 'freqtrade', oracle: json('freqtrade/XRP_USDT_USDT-1h-futures.json') },
  { file: 'freqtrade/XRP_USDT_USDT-5m-futures.json', rows: 1999, timeframe: 'M5', format: 'freqtrade', oracle: json('freqtrade/XRP_USDT_USDT-5m-futures.json') },
  { file: 'official/EURUSD_H1_2017-2018.csv', rows: 5000, timeframe: 'H1', format: 'official', oracle: () => csvRows('official/EURUSD_H1_2017-2018.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5]) },
  { file: 'official/EURUSD_H1_symbol-row.csv', rows: 48, timeframe: 'H1', format: 'official', oracle: () => csvRows('official/EURUSD_H1_symbol-row.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5], 2) },
  { file: 'official/EURUSD_H1_custom-upload.csv', rows: 48, timeframe: 'H1', format: 'custom', oracle: () => csvRows('official/EURUSD_H1_custom-upload.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5]) },
  { file: 'official/EURUSD_H1_crlf.csv', rows: 48, timeframe: 'H1', format: 'official', oracle: () => csvRows('official/EURUSD_H1_crlf.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5]) },
  { file: 'official/EURUSD_H1_bom.csv', rows: 48, timeframe: 'H1', format: 'official', oracle: () => csvRows('official/EURUSD_H1_crlf.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5]) },
  { file: 'official/EURUSD_H1_slice.xlsx', rows: 200, timeframe: 'H1', format: 'official', oracle: () => csvRows('official/EURUSD_H1_2017-2018.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5]).slice(0, 200) },
  { file: 'official/EURUSD_H1_slice_excel-dates.xlsx', rows: 200, timeframe: 'H1', format: 'official', oracle: () => csvRows('official/EURUSD_H1_2017-2018.csv', (c) => Date.parse(c[0].replace(' ', 'T')), [1, 2, 3, 4, 5]).slice(0, 200) },
];

// fixtures/market: the recent end of real exports, as published (GMT times; tabs and a header,
// or commas and no header row for AUDCHF).
const MARKET: [file: string, rows: number, timeframe: string][] = [
  ['AUDCHF_H4.csv', 2477, 'H4'], ['AUDUSD_H4.csv', 2477, 'H4'], ['EURAUD_H4.csv', 2477, 'H4'], ['EURCAD_H4.csv', 2477, 'H4'],
  ['EURCHF_H4.csv', 2477, 'H4'], ['EURGBP_H4.csv', 2477, 'H4'], ['EURJPY_H4.csv', 2477, 'H4'], ['EURNZD_H4.csv', 2474, 'H4'],
  ['EURUSD_H4.csv', 2477, 'H4'], ['GBPAUD_H4.csv', 2476, 'H4'], ['GBPCAD_H4.csv', 2477, 'H4'], ['GBPCHF_H4.csv', 2476, 'H4'],
  ['GBPJPY_H4.csv', 2477, 'H4'], ['GBPUSD_H4.csv', 2477, 'H4'], ['NZDUSD_H4.csv', 2476, 'H4'], ['USDCAD_H4.csv', 2477, 'H4'],
  ['USDCHF_H4.csv', 2477, 'H4'], ['USDJPY_H4.csv', 2477, 'H4'], ['XAUUSD_H4.csv', 2452, 'H4'], ['XAGUSD_H1.csv', 9067, 'H1'],
  ['BRENTCMDUSD_H1.csv', 8270, 'H1'], ['DEUIDXEUR_H1.csv', 9080, 'H1'], ['GBRIDXGBP_H1.csv', 8826, 'H1'], ['USA30IDXUSD_H1.csv', 9042, 'H1'],
  ['USA500IDXUSD_H1.csv', 8902, 'H1'], ['USATECHIDXUSD_H1.csv', 8903, 'H1'], ['BTCUSD_M30.csv', 19317, 'M30'], ['ETHUSD_M30.csv', 19318, 'M30'],
];
for (const [name, rows, timeframe] of MARKET) {
  const file = `market/${name}`;
  const headerless = name === 'AUDCHF_H4.csv';
  files.push({ file, options: { utcOffset: 'UTC' }, rows, timeframe, format: 'plain', oracle: () => csvRows(file, (c) => isoUtc(c[0]), [1, 2, 3, 4, 5], headerless ? 0 : 1, /[,\t]/) });
}

test('fixtures/market: 27 tab-separated files with a header, one comma-separated without (a no_header warning)', async () => {
  for (const [name] of MARKET) {
    const text = readFileSync(join(fixtures, 'market', name), 'utf8');
    const first = text.slice(0, text.indexOf('\n'));
    const { warnings } = await readCandlesFile(join(fixtures, 'market', name), { utcOffset: 'UTC' });
    if (name === 'AUDCHF_H4.csv') {
      assert.equal(first, '2022-03-01 00:00,0.66599,0.668,0.66553,0.66606,15504');
      assert.deepEqual(warnings.map((w) => [w.code, w.line]), [['no_header', 1]]);
    } else {
      assert.equal(first, 'Time\tOpen\tHigh\tLow\tClose\tVolume', name);
      assert.deepEqual(warnings, [], name);
    }
  }
});

for (const f of files) {
  test(`${f.file} loads: ${f.rows} candles, ${f.timeframe ?? 'no timeframe'}, ${f.format} layout, values as read independently`, async () => {
    const loaded = await readCandlesFile(join(fixtures, f.file), f.options);
    const { candles } = loaded;
    assert.equal(candles.length, f.rows);
    assert.equal(loaded.timeframe, f.timeframe);
    assert.equal(candles.timeframe, f.timeframe);
    assert.equal(loaded.format, f.format);
    assert.deepEqual(Object.keys(candles.extra), f.extra ?? []);
    assert.equal(candles.table.numRows, f.rows);
    const oracle = f.oracle();
    assert.equal(oracle.length, f.rows);
    const columns = [candles.time, candles.open, candles.high, candles.low, candles.close, candles.volume];
    for (let i = 0; i < f.rows; i++) {
      for (let c = 0; c < 6; c++) {
        if (columns[c][i] !== oracle[i][c]) assert.fail(`row ${i + 1} column ${c}: ${columns[c][i]} vs ${oracle[i][c]}`);
      }
    }
  });
}

test('the monthly BTCUSD file says why it has no timeframe', async () => {
  const { warnings, stepMs } = await readCandlesFile(join(fixtures, 'BTCUSD.csv'), { utcOffset: 'UTC' });
  assert.equal(stepMs, 31 * 86_400_000);
  assert.deepEqual(warnings.map((w) => w.code), ['unknown_timeframe']);
  assert.match(warnings[0].message, /31 days, which is none of M1, M5, M15, M30, H1, H4, D1/);
});

test('the symbol row is skipped and reported as the symbol', async () => {
  const loaded = await readCandlesFile(join(fixtures, 'official', 'EURUSD_H1_symbol-row.csv'));
  assert.equal(loaded.symbol, 'EURUSD');
  assert.equal(loaded.candles.symbol, 'EURUSD');
});

test('Excel date cells are read as UTC and the user is told', async () => {
  const loaded = await readCandlesFile(join(fixtures, 'official', 'EURUSD_H1_slice_excel-dates.xlsx'));
  assert.deepEqual(loaded.warnings.map((w) => [w.code, w.line]), [['excel_dates_as_utc', 2]]);
  const text = await readCandlesFile(join(fixtures, 'official', 'EURUSD_H1_slice.xlsx'));
  assert.deepEqual(text.warnings, []);
});
