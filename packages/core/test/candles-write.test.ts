import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CandleFileError, candlesFromColumns, candlesToCsv, candlesToIpc, candlesToJson, candlesToXlsx, detectCandleContainer, formatCsvNumber,
  readCandles, readCandlesCsv, readCandlesIpc, readCandlesJson, readCandlesXlsx, validateCandles, withExtraColumns, type Candles,
} from '@bt/core/candles';
import { readCandlesFile, writeCandlesFile } from '@bt/core/node';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const smc = await readCandlesFile(join(fixtures, 'smc', 'EURUSD_15M.csv'), { utcOffset: '+02:00', symbol: 'EURUSD' });
const series: Candles = withExtraColumns(smc.candles, { RSI_14: Float64Array.from(smc.candles.close, (c, i) => (i < 14 ? NaN : c * 37.5)) });

function assertSame(a: Candles, b: Candles): void {
  assert.equal(b.length, a.length);
  for (const k of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) assert.deepEqual(b[k], a[k], k);
  assert.deepEqual(Object.keys(b.extra), Object.keys(a.extra));
  for (const name of Object.keys(a.extra)) assert.deepEqual(b.extra[name], a.extra[name], name);
}

test('formatCsvNumber writes the shortest text that reads back to the same double', () => {
  for (const v of [0, -0, 1, 1.0716, 0.1 + 0.2, 1e-7, 123456789.123, 1e21, 5e-324, -2.5]) {
    const text = formatCsvNumber(v);
    assert.ok(Object.is(parseFloat(text), v), `${v} -> ${text}`);
  }
  assert.equal(formatCsvNumber(NaN), '');
});

test('official CSV: Datetime as YYYY-MM-DD HH:MM:SS+00:00, and a round trip gives identical Float64 values', () => {
  const text = candlesToCsv(series);
  assert.equal(text.split('\n', 3).join('\n'), 'Datetime,Open,High,Low,Close,Volume,Tickvol,Spread,RSI_14\n2022-10-09 22:00:00+00:00,0.97312,0.97369,0.97312,0.97357,0,60,20,\n2022-10-09 22:15:00+00:00,0.9735,0.97362,0.97328,0.97362,0,57,20,');
  const back = readCandlesCsv(text);
  assert.equal(back.format, 'official');
  assert.equal(back.timeframe, 'M15');
  assertSame(series, back.candles);
});

test('official CSV with the symbol row reads back with its symbol', () => {
  const back = readCandlesCsv(candlesToCsv(series, { symbolRow: true }));
  assert.equal(back.symbol, 'EURUSD');
  assertSame(series, back.candles);
});

test('Arrow IPC, file and stream formats, round trip with symbol and timeframe in the schema metadata', () => {
  for (const format of ['file', 'stream'] as const) {
    const bytes = candlesToIpc(smc.candles, format);
    assert.equal(detectCandleContainer(bytes), 'arrow');
    const back = readCandlesIpc(bytes);
    assert.equal(back.symbol, 'EURUSD');
    assert.equal(back.timeframe, 'M15');
    assert.equal(String(back.candles.table.getChild('Datetime')!.type), 'Timestamp<MILLISECOND>');
    assertSame(smc.candles, back.candles);
  }
});

test('reading Arrow IPC validates the candles like a CSV (rows numbered from 1)', () => {
  const c = smc.candles;
  const high = c.high.slice();
  high[9] = c.low[9] - 0.001;
  const broken = candlesFromColumns({ time: c.time, open: c.open, high, low: c.low, close: c.close, volume: c.volume });
  assert.throws(() => readCandlesIpc(candlesToIpc(broken)), (e: unknown) => e instanceof CandleFileError && e.problems[0].code === 'high_below_low' && e.problems[0].line === 10 && e.problems[0].message.startsWith('row 10, column High'));
  assert.equal(readCandlesIpc(candlesToIpc(broken), { validate: false }).candles.length, c.length);
  assert.throws(() => readCandlesIpc(new Uint8Array([1, 2, 3])), (e: unknown) => e instanceof CandleFileError && e.problems[0].code === 'invalid_arrow');
});

test('validateCandles checks a series built in code; keep-first works on copies', () => {
  const time = Float64Array.from([0, 60_000, 60_000, 120_000]);
  const ones = new Float64Array(4).fill(1);
  const candles = candlesFromColumns({ time, open: ones, high: ones, low: ones, close: ones, volume: ones });
  assert.throws(() => validateCandles(candles), (e: unknown) => e instanceof CandleFileError && e.problems[0].code === 'duplicate' && e.problems[0].line === 3);
  const kept = validateCandles(candles, { duplicates: 'keep-first' });
  assert.deepEqual([...kept.candles.time], [0, 60_000, 120_000]);
  assert.equal(kept.timeframe, 'M1');
  assert.deepEqual([...time], [0, 60_000, 60_000, 120_000], 'the caller’s arrays are untouched');
});

test('validateCandles refuses an infinite High or Volume that is otherwise in order', () => {
  const ones = () => new Float64Array(5).fill(1);
  const high = ones();
  const volume = ones();
  high[2] = Infinity;
  volume[3] = Infinity;
  const candles = candlesFromColumns({ time: Float64Array.from([0, 1, 2, 3, 4], (i) => i * 60_000), open: ones(), high, low: ones(), close: ones(), volume });
  assert.throws(() => validateCandles(candles), (e: unknown) => {
    assert.ok(e instanceof CandleFileError);
    assert.deepEqual(e.problems.map((p) => [p.code, p.line, p.column]), [['non_numeric', 3, 'High'], ['non_numeric', 4, 'Volume']]);
    return true;
  });
});

test('XLSX: text dates and Excel date cells both read back identically', async () => {
  const slice = candlesFromColumns({
    time: series.time.slice(0, 300), open: series.open.slice(0, 300), high: series.high.slice(0, 300), low: series.low.slice(0, 300),
    close: series.close.slice(0, 300), volume: series.volume.slice(0, 300), extra: { RSI_14: series.extra.RSI_14.slice(0, 300) },
  }, { symbol: 'EURUSD' });
  for (const dates of ['text', 'excel'] as const) {
    const bytes = await candlesToXlsx(slice, { dates });
    assert.equal(detectCandleContainer(bytes), 'xlsx');
    const back = await readCandlesXlsx(bytes);
    assert.equal(back.timeframe, 'M15');
    assertSame(slice, back.candles);
    assert.deepEqual(back.warnings.map((w) => w.code), dates === 'excel' ? ['excel_dates_as_utc'] : []);
  }
  const offset = await readCandlesXlsx(await candlesToXlsx(slice, { dates: 'excel' }), { utcOffset: '+01:00' });
  assert.equal(offset.candles.time[0], slice.time[0] - 3_600_000);
});

test('freqtrade JSON round trip', () => {
  const back = readCandlesJson(candlesToJson(smc.candles));
  assert.equal(back.format, 'freqtrade');
  assert.equal(back.timeframe, 'M15');
  for (const k of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) assert.deepEqual(back.candles[k], smc.candles[k]);
});

test('readCandles tells the containers apart from their bytes', async () => {
  const csv = candlesToCsv(smc.candles);
  assert.equal((await readCandles(csv)).format, 'official');
  assert.equal((await readCandles(new TextEncoder().encode(candlesToJson(smc.candles)))).format, 'freqtrade');
  assert.equal((await readCandles(candlesToIpc(smc.candles))).candles.length, smc.candles.length);
  assert.equal((await readCandles(readFileSync(join(fixtures, 'official', 'EURUSD_H1_slice.xlsx')))).candles.length, 200);
});

test('writeCandlesFile and readCandlesFile go by extension', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bt-candles-'));
  try {
    for (const name of ['a.csv', 'a.arrow', 'a.ipc', 'a.arrows', 'a.json', 'a.xlsx']) {
      const path = join(dir, name);
      const candles = name.endsWith('.xlsx') ? candlesFromColumns({ time: smc.candles.time.slice(0, 100), open: smc.candles.open.slice(0, 100), high: smc.candles.high.slice(0, 100), low: smc.candles.low.slice(0, 100), close: smc.candles.close.slice(0, 100), volume: smc.candles.volume.slice(0, 100) }) : smc.candles;
      await writeCandlesFile(path, candles);
      const back = await readCandlesFile(path);
      assert.equal(back.timeframe, 'M15', name);
      assert.deepEqual(back.candles.close, candles.close, name);
    }
    await assert.rejects(writeCandlesFile(join(dir, 'a.parquet'), smc.candles), /invalid path: ".*a\.parquet" \(expected a \.csv/);
    assert.deepEqual(readdirSync(dir).sort(), ['a.arrow', 'a.arrows', 'a.csv', 'a.ipc', 'a.json', 'a.xlsx']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readCandlesFile streams a CSV bigger than its 4 MB pieces to the same result as reading it whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bt-candles-'));
  try {
    const path = join(dir, 'big.csv');
    const lines = ['Datetime,Open,High,Low,Close,Volume'];
    let price = 1.1;
    for (let i = 0; i < 150_000; i++) {
      const next = Math.round((price + Math.sin(i) * 0.0004) * 1e5) / 1e5;
      lines.push(`${new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString().replace('T', ' ').replace('.000Z', '+00:00')},${price},${Math.max(price, next) + 0.0001},${Math.min(price, next) - 0.0001},${next},${i % 97}`);
      price = next;
    }
    writeFileSync(path, lines.join('\n'));
    const streamed = await readCandlesFile(path);
    const whole = readCandlesCsv(readFileSync(path));
    assert.ok(readFileSync(path).length > 4 << 20);
    assert.equal(streamed.candles.length, 150_000);
    for (const k of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) assert.deepEqual(streamed.candles[k], whole.candles[k], k);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
