import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candlesFromColumns, withExtraColumns } from '@bt/core/candles';
import { ema, indicatorColumn, indicatorColumnsFor, rsi, withIndicators } from '@bt/core/indicators';
import { normalizeParams } from '@bt/core/params';

const f = (...v: number[]) => Float64Array.from(v);

test('ema: NaN before the seed, the SMA of the first n values at n-1, then k = 2/(n+1)', () => {
  const out = ema(f(2, 4, 6, 8, 10), 3);
  assert.ok(Number.isNaN(out[0]) && Number.isNaN(out[1]));
  assert.equal(out[2], 4);
  assert.equal(out[3], 6); // 4 + 0.5 (8 - 4)
  assert.equal(out[4], 8);
  assert.deepEqual([...ema(f(5, 7), 1)], [5, 7], 'period 1 is the series itself');
  assert.ok(ema(f(1, 2), 3).every(Number.isNaN), 'shorter than the period: all NaN');
});

test('ema skips leading NaN and seeds from the first defined values', () => {
  const out = ema(f(NaN, NaN, 3, 5, 7), 2);
  assert.deepEqual([...out].map((v) => (Number.isNaN(v) ? null : v)), [null, null, null, 4, 6]);
});

test('rsi: Wilder averages from the first n changes, 100 with no loss, 50 on a flat market', () => {
  // changes +1, -1, +2: avg gain (1 + 2) / 3 = 1, avg loss 1/3 -> RS 3 -> RSI 75
  const out = rsi(f(10, 11, 10, 12, 11), 3);
  assert.ok([0, 1, 2].every((i) => Number.isNaN(out[i])));
  assert.equal(out[3], 75);
  // next change -1: gain (1*2 + 0)/3 = 2/3, loss (1/3*2 + 1)/3 = 5/9 -> RS 1.2 -> 100 - 100/2.2
  assert.ok(Math.abs(out[4] - (100 - 100 / 2.2)) < 1e-12);
  assert.deepEqual([...rsi(f(1, 2, 3, 4), 3)].slice(3), [100]);
  assert.deepEqual([...rsi(f(5, 5, 5, 5, 5), 3)].slice(3), [50, 50]);
  assert.ok(rsi(f(1, 2, 3), 3).every(Number.isNaN), 'needs period + 1 values');
});

test('indicators refuse a period that is not a whole number ≥ 1', () => {
  assert.throws(() => ema(f(1, 2), 0), { message: 'invalid period: 0 (expected an integer ≥ 1)' });
  assert.throws(() => rsi(f(1, 2), 2.5), { message: 'invalid period: 2.5 (expected an integer ≥ 1)' });
});

test('indicatorColumn reads RSI, RSI_n and EMA_n; other names are not indicators', () => {
  assert.deepEqual(indicatorColumn('RSI'), { name: 'RSI', kind: 'rsi', period: 14 });
  assert.deepEqual(indicatorColumn('RSI_7'), { name: 'RSI_7', kind: 'rsi', period: 7 });
  assert.deepEqual(indicatorColumn('EMA_200'), { name: 'EMA_200', kind: 'ema', period: 200 });
  assert.deepEqual(indicatorColumn('ema_50'), { name: 'ema_50', kind: 'ema', period: 50 });
  for (const name of ['EMA', 'EMA_0', 'RSI_', 'Tickvol', 'SMA_20', 'EMA_50x']) assert.equal(indicatorColumn(name), undefined, name);
});

const closes = f(1.1, 1.12, 1.11, 1.13, 1.16, 1.14, 1.15, 1.17, 1.18, 1.16, 1.19, 1.2, 1.18, 1.21, 1.22, 1.2, 1.23);
const n = closes.length;
const base = candlesFromColumns({
  time: Float64Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000),
  open: closes, high: closes.map((c) => c + 0.01), low: closes.map((c) => c - 0.01), close: closes, volume: new Float64Array(n),
});

test('withIndicators computes missing columns under the requested names', () => {
  const candles = withIndicators(base, ['RSI', 'EMA_5', 'RSI_7']);
  assert.deepEqual([...candles.extra.RSI!], [...rsi(closes, 14)]);
  assert.deepEqual([...candles.extra.RSI_7!], [...rsi(closes, 7)]);
  assert.deepEqual([...candles.extra.EMA_5!], [...ema(closes, 5)]);
  assert.deepEqual(candles.table.schema.fields.map((x) => x.name).slice(6), ['RSI', 'EMA_5', 'RSI_7']);
  assert.equal(withIndicators(candles, ['RSI', 'EMA_5']), candles, 'nothing missing: same object');
});

test('a column the data has is used as it is; RSI falls back to the file RSI_14', () => {
  const fileRsi = new Float64Array(n).fill(42);
  const withFile = withExtraColumns(base, { RSI_14: fileRsi, EMA_5: new Float64Array(n).fill(1.5) });
  const candles = withIndicators(withFile, ['RSI', 'RSI_14', 'EMA_5']);
  assert.equal(candles.extra.RSI, fileRsi, "'RSI' resolves to the file's RSI_14");
  assert.equal(candles.extra.RSI_14, fileRsi);
  assert.ok(candles.extra.EMA_5!.every((v) => v === 1.5));
  const own = withIndicators(withExtraColumns(base, { RSI: new Float64Array(n).fill(61) }), ['RSI']);
  assert.ok(own.extra.RSI!.every((v) => v === 61), "an 'RSI' column wins over everything");
});

test('withIndicators refuses a missing column it cannot compute', () => {
  assert.throws(() => withIndicators(base, ['SMA_20']), {
    message: 'invalid indicator column: "SMA_20" (not in the data, and not one bt computes: RSI, RSI_n or EMA_n)',
  });
});

test("indicatorColumnsFor lists the columns a strategy's filters read, from its parameters", () => {
  const { params } = normalizeParams({ ema1: 20, ema2: '100', rsi_key: '7' }, { strategy: 'ob_pullback_pure_tendance_ema_rsi' });
  assert.deepEqual(indicatorColumnsFor('ob_pullback_pure_tendance_ema_rsi', params), ['EMA_20', 'EMA_100', 'RSI_7']);
  const defaults = normalizeParams({}, { strategy: 'englobante_entry_rsi_ema' }).params;
  assert.deepEqual(indicatorColumnsFor('englobante_entry_rsi_ema', defaults), ['RSI', 'EMA_50']);
  assert.deepEqual(indicatorColumnsFor('fvg_impulsive', {}), []);
});
