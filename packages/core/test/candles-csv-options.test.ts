import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CandleFileError, normalizeCandleOptions, readCandlesCsv, type CandleFile } from '@bt/core/candles';
import { parseUtcOffset } from '../src/candles/options.js';
import { CsvCandleReader } from '../src/candles/csv-read.js';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const H = 'Datetime,Open,High,Low,Close,Volume';
const rows = [
  '2024-01-02 00:00:00+00:00,1.1,1.2,1.0,1.15,10',
  '2024-01-02 00:05:00+00:00,1.15,1.25,1.1,1.2,11',
  '2024-01-02 00:10:00+00:00,1.2,1.3,1.15,1.25,12',
];
const csv = (...lines: string[]) => lines.join('\n') + '\n';
const problemsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof CandleFileError, String(error));
    return error.problems;
  }
  return assert.fail('expected a CandleFileError');
};

test('option normalisers throw Plot-style messages', () => {
  assert.throws(() => normalizeCandleOptions({ utcOffset: 'abc' }), /^Error: invalid utcOffset: "abc"/);
  assert.throws(() => normalizeCandleOptions({ utcOffset: '+25:00' }), /invalid utcOffset: "\+25:00"/);
  assert.throws(() => normalizeCandleOptions({ utcOffset: 1.5 }), /invalid utcOffset: 1.5/);
  assert.throws(() => normalizeCandleOptions({ format: 'excel' as never }), /invalid format: "excel"/);
  assert.throws(() => normalizeCandleOptions({ duplicates: 'last' as never }), /invalid duplicates: "last"/);
  assert.throws(() => normalizeCandleOptions({ timeframe: 'M7' }), /invalid timeframe: M7/);
  assert.throws(() => normalizeCandleOptions({ symbol: ' ' }), /invalid symbol: " "/);
  assert.throws(() => normalizeCandleOptions({ maxProblems: 0 }), /invalid maxProblems: 0/);
  assert.throws(() => normalizeCandleOptions({ utcoffset: '+02:00' } as never), /invalid option: utcoffset/);
  assert.deepEqual(['+02:00', '-05:00', '+0530', '+02', 'Z', 'UTC', 'utc', 'GMT+01:00', 120].map(parseUtcOffset), [120, -300, 330, 120, 0, 0, 0, 60, 120]);
});

test('the official format loads with its timeframe, no symbol and no warnings', () => {
  const loaded = readCandlesCsv(csv(H, ...rows));
  assert.equal(loaded.format, 'official');
  assert.equal(loaded.timeframe, 'M5');
  assert.equal(loaded.symbol, undefined);
  assert.deepEqual(loaded.warnings, []);
  assert.deepEqual([...loaded.candles.time], [Date.UTC(2024, 0, 2, 0, 0), Date.UTC(2024, 0, 2, 0, 5), Date.UTC(2024, 0, 2, 0, 10)]);
});

test('Z, T, fractional seconds and other offsets are read; non-UTC offsets are converted and reported', () => {
  const loaded = readCandlesCsv(csv(H, '2024-01-02T00:00:00Z,1.1,1.2,1.0,1.15,10', '2024-01-02T02:05:00.000+02:00,1.15,1.25,1.1,1.2,11', '2024-01-01 19:10:00-05:00,1.2,1.3,1.15,1.25,12'));
  assert.deepEqual([...loaded.candles.time], [Date.UTC(2024, 0, 2, 0, 0), Date.UTC(2024, 0, 2, 0, 5), Date.UTC(2024, 0, 2, 0, 10)]);
  assert.deepEqual(loaded.warnings.map((w) => [w.code, w.line, w.value]), [['converted_offset', 3, '+02:00']]);
  assert.match(loaded.warnings[0].message, /2 times with a UTC offset other than \+00:00/);
});

test('utcOffset states the zone of naive times; times with their own offset keep it', () => {
  const naive = readCandlesCsv(csv(H, ...rows.map((r) => r.replace('+00:00', ''))), { utcOffset: '+02:00' });
  assert.equal(naive.candles.time[0], Date.UTC(2024, 0, 1, 22, 0));
  const own = readCandlesCsv(csv(H, ...rows), { utcOffset: '+02:00' });
  assert.equal(own.candles.time[0], Date.UTC(2024, 0, 2, 0, 0));
});

test('the custom-upload header (time, open, high, low, close, volume) loads, epoch times included', () => {
  const loaded = readCandlesCsv(csv('time,open,high,low,close,volume', '1704153600,1.1,1.2,1.0,1.15,10', '1704153900000,1.15,1.25,1.1,1.2,11'));
  assert.equal(loaded.format, 'custom');
  assert.deepEqual([...loaded.candles.time], [1704153600000, 1704153900000]);
  assert.equal(loaded.timeframe, 'M5');
});

test('extra numeric columns are kept by name, empty and NaN cells as NaN; text columns are dropped with a warning', () => {
  const loaded = readCandlesCsv(csv(`${H},RSI_14,Note,EMA_50`, `${rows[0]},,hello,1.1`, `${rows[1]},NaN,x,1.12`, `${rows[2]},55.5,y,1.13`));
  assert.deepEqual(Object.keys(loaded.candles.extra), ['RSI_14', 'EMA_50']);
  const rsi = loaded.candles.extra.RSI_14;
  assert.ok(Number.isNaN(rsi[0]) && Number.isNaN(rsi[1]));
  assert.equal(rsi[2], 55.5);
  assert.deepEqual([...loaded.candles.extra.EMA_50], [1.1, 1.12, 1.13]);
  assert.deepEqual(loaded.candles.table.schema.fields.map((f) => f.name), ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume', 'RSI_14', 'EMA_50']);
  assert.deepEqual(loaded.warnings.map((w) => [w.code, w.column]), [['dropped_column', 'Note']]);
});

test('an extra column with text further down is an error at its line', () => {
  const problems = problemsOf(() => readCandlesCsv(csv(`${H},RSI_14`, `${rows[0]},50`, `${rows[1]},high`, `${rows[2]},55`)));
  assert.deepEqual(problems.map((p) => [p.code, p.line, p.column]), [['non_numeric', 3, 'RSI_14']]);
});

test("duplicates: 'keep-first' keeps the first row of each time and says how many were dropped", () => {
  const text = csv(H, rows[0], rows[1], rows[1].replace('1.15,1.25', '1.16,1.25'), rows[2]);
  assert.deepEqual(problemsOf(() => readCandlesCsv(text)).map((p) => [p.code, p.line]), [['duplicate', 4]]);
  const loaded = readCandlesCsv(text, { duplicates: 'keep-first' });
  assert.equal(loaded.candles.length, 3);
  assert.equal(loaded.candles.open[1], 1.15);
  assert.deepEqual(loaded.warnings.map((w) => [w.code, w.line, w.value]), [['duplicates_dropped', 4, '1']]);
});

test('weekend and holiday gaps are accepted: any whole number of steps', () => {
  const loaded = readCandlesCsv(csv(H, '2024-01-05 21:55:00+00:00,1.1,1.2,1.0,1.15,10', '2024-01-05 22:00:00+00:00,1.1,1.2,1.0,1.15,10', '2024-01-07 22:00:00+00:00,1.1,1.2,1.0,1.15,10', '2024-01-07 22:05:00+00:00,1.1,1.2,1.0,1.15,10'));
  assert.equal(loaded.timeframe, 'M5');
});

test('a stated timeframe that matches is used; a single candle needs one', () => {
  assert.equal(readCandlesCsv(csv(H, ...rows), { timeframe: 'm5' }).timeframe, 'M5');
  const single = readCandlesCsv(csv(H, rows[0]));
  assert.equal(single.timeframe, undefined);
  assert.deepEqual(single.warnings.map((w) => w.code), ['unknown_timeframe']);
  assert.equal(readCandlesCsv(csv(H, rows[0]), { timeframe: 'H1' }).timeframe, 'H1');
});

test('symbol: the option wins over the symbol row, with a warning when they differ', () => {
  const text = csv(H, ',EURUSD,EURUSD,EURUSD,EURUSD,EURUSD', ...rows);
  assert.equal(readCandlesCsv(text).symbol, 'EURUSD');
  const given = readCandlesCsv(text, { symbol: 'GBPUSD' });
  assert.equal(given.symbol, 'GBPUSD');
  assert.deepEqual(given.warnings.map((w) => w.code), ['symbol_mismatch']);
  assert.equal(readCandlesCsv(csv(H, 'EURUSD,,,,,', ...rows)).symbol, 'EURUSD');
  assert.equal(readCandlesCsv(csv(H, ...rows), { symbol: 'XAUUSD' }).candles.symbol, 'XAUUSD');
});

test('BOM, CRLF, quoted cells, spaces, no final newline and trailing empty lines are fine', () => {
  const plain = readCandlesCsv(csv(H, ...rows));
  const variants = [
    '\ufeff' + csv(H, ...rows),
    [H, ...rows].join('\r\n') + '\r\n',
    csv(H, ...rows.map((r) => r.replace(/,/g, ', '))),
    csv('"Datetime","Open","High","Low","Close","Volume"', ...rows.map((r) => r.split(',').map((c) => `"${c}"`).join(','))),
    [H, ...rows].join('\n'),
    csv(H, ...rows) + '\n\n',
  ];
  for (const text of variants) {
    const loaded = readCandlesCsv(text);
    assert.deepEqual([...loaded.candles.time], [...plain.candles.time], JSON.stringify(text.slice(0, 60)));
    assert.deepEqual([...loaded.candles.close], [...plain.candles.close]);
  }
});

test('MetaTrader 5 tab-separated exports with <DATE> and <TIME> columns load with utcOffset', () => {
  const mt5 = ['<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>',
    '2024.01.02\t00:00:00\t1.1\t1.2\t1.0\t1.15\t60\t0\t12', '2024.01.02\t00:15:00\t1.15\t1.25\t1.1\t1.2\t61\t0\t12'].join('\n');
  const loaded = readCandlesCsv(mt5, { utcOffset: '+02:00' });
  assert.equal(loaded.format, 'metatrader');
  assert.equal(loaded.timeframe, 'M15');
  assert.equal(loaded.candles.time[0], Date.UTC(2024, 0, 1, 22, 0));
  assert.deepEqual(Object.keys(loaded.candles.extra), ['<TICKVOL>', '<SPREAD>']);
});

test('an explicit format must match the header', () => {
  const problems = problemsOf(() => readCandlesCsv(csv(H, ...rows), { format: 'custom' }));
  assert.deepEqual(problems.map((p) => [p.code, p.column, p.message]), ['time', 'open', 'high', 'low', 'close', 'volume'].map((name, k) => {
    const official = H.split(',')[k];
    return ['wrong_column_name', official, `line 1, column ${official}: column "${official}" should be named ${name}`];
  }));
  assert.equal(readCandlesCsv(readFileSync(join(fixtures, 'backtrader', '2006-day-001.txt')), { format: 'backtrader', utcOffset: 'UTC' }).candles.length, 255);
});

test('problems are capped: five per kind, maxProblems in all, the rest counted', () => {
  const lines = [H];
  for (let i = 0; i < 40; i++) lines.push(`2024-01-02 ${String(Math.floor(i / 12)).padStart(2, '0')}:${String((i % 12) * 5).padStart(2, '0')}:00+00:00,1.1,${i % 2 ? '1.0,1.2' : '1.2,1.0'},1.15,${i % 2 ? -1 : 1}`);
  try {
    readCandlesCsv(csv(...lines), { maxProblems: 8 });
    assert.fail('loaded');
  } catch (error) {
    assert.ok(error instanceof CandleFileError);
    assert.equal(error.problems.length, 8);
    assert.deepEqual(error.problems.map((p) => p.code), ['high_below_low', 'negative_volume', 'high_below_low', 'negative_volume', 'high_below_low', 'negative_volume', 'high_below_low', 'negative_volume']);
    assert.equal(error.omitted, 40 - 8);
    assert.match(error.message, /… and 32 more problems not listed/);
  }
});

test('the incremental reader gives the same result from line-aligned pieces as from the whole file', () => {
  const bytes = readFileSync(join(fixtures, 'official', 'EURUSD_H1_2017-2018.csv'));
  const whole = readCandlesCsv(bytes);
  for (const pieceLines of [1, 7, 1000]) {
    const reader = new CsvCandleReader({}, bytes.length);
    let start = 0;
    let lines = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 10 && ++lines % pieceLines === 0) {
        reader.push(bytes.subarray(start, i + 1));
        start = i + 1;
      }
    }
    reader.push(bytes.subarray(start), true);
    const pieces: CandleFile = reader.finish();
    assert.equal(pieces.timeframe, 'H1');
    for (const k of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) assert.deepEqual(pieces.candles[k], whole.candles[k], `${k} with ${pieceLines}-line pieces`);
  }
});
