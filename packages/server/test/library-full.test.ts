// The whole library `npm start` seeds (fixtures/README.md, "The official library"): every real
// source, read as published, listed by GET /api/datasets, and usable by a backtest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findSymbol } from '@bt/core/catalogue';
import { readCandlesFile } from '@bt/core/node';
import { lowerBound } from '@bt/core/simulate';
import { resampleCandles, sliceCandles } from '../src/datasets/series.js';
import { FIXTURE_SOURCES } from '../src/datasets/seed.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { FIXTURES, funded, runBacktest } from './support/work.js';

const t = useTestApp({ library: 'full' });

interface Listed {
  symbol: string;
  asset_class: string;
  first_candle: string;
  last_candle: string;
  timeframes: { timeframe: string; first_candle: string; last_candle: string; candles: number; months: number; ranges: unknown[] }[];
}

describe(`the full seeded library (${TEST_DIALECT})`, () => {
  it('at least 25 instruments have data, each listed with its range, from every class the data covers', async () => {
    const res = await t.request('GET', '/api/datasets');
    assert.equal(res.status, 200);
    const symbols = res.body.symbols as Listed[];
    assert.ok(symbols.length >= 25, `${symbols.length} instruments`);
    assert.equal(symbols.length, new Set(FIXTURE_SOURCES.map((s) => s.symbol)).size);
    for (const s of symbols) {
      assert.ok(findSymbol(s.symbol), `${s.symbol} is a catalogue symbol`);
      assert.ok(Date.parse(s.first_candle) < Date.parse(s.last_candle), s.symbol);
      for (const tf of s.timeframes) {
        assert.ok(tf.candles > 0 && tf.months > 0 && tf.ranges.length > 0, `${s.symbol} ${tf.timeframe}`);
      }
    }
    assert.deepEqual([...new Set(symbols.map((s) => s.asset_class))].sort(), ['crypto', 'energy', 'forex', 'index', 'metal']);
    // The market files: 18 months up to 11 September 2023, in their native timeframe and above.
    const us500 = symbols.find((s) => s.symbol === 'US500')!;
    assert.deepEqual(us500.timeframes.map((tf) => [tf.timeframe, tf.months]), [['H1', 19], ['H4', 19]]);
    assert.equal(us500.first_candle, '2022-03-01T00:00:00.000Z');
    assert.equal(us500.last_candle, '2023-09-11T09:00:00.000Z');
    const btc = symbols.find((s) => s.symbol === 'BTC-USD')!;
    assert.deepEqual(btc.timeframes.map((tf) => tf.timeframe), ['M30', 'H1', 'H4']);
    const xau = symbols.find((s) => s.symbol === 'XAUUSD')!;
    assert.deepEqual(xau.timeframes.map((tf) => tf.timeframe), ['H4'], 'never resampled to a lower timeframe');
  });

  it('a month a source holds natively is never replaced by a resampled one', async () => {
    const datasets = t.app.services.datasets;
    const native = (await readCandlesFile(FIXTURES + 'market/EURUSD_H4.csv', { utcOffset: 'UTC' })).candles;
    const m15 = (await readCandlesFile(FIXTURES + 'smc/EURUSD_15M.csv', { utcOffset: '+02:00' })).candles;
    const resampled = resampleCandles(m15, 'H4');
    const october = await datasets.load('EURUSD', 'H4', Date.UTC(2022, 9, 1), Date.UTC(2022, 9, 31, 23, 59), 0);
    const fileOctober = sliceCandles(native, lowerBound(native.time, Date.UTC(2022, 9, 1)), lowerBound(native.time, Date.UTC(2022, 10, 1)));
    assert.deepEqual([...october!.candles.time], [...fileOctober.time], 'the GMT H4 file, not the M15 file in broker time');
    assert.deepEqual([...october!.candles.close], [...fileOctober.close]);
    const lastDays = await datasets.load('EURUSD', 'H4', Date.UTC(2023, 9, 1), Date.UTC(2023, 9, 31), 0);
    const fromM15 = sliceCandles(resampled, lowerBound(resampled.time, Date.UTC(2023, 9, 1)), resampled.length);
    assert.deepEqual([...lastDays!.candles.close], [...fromM15.close], 'only the month the H4 file lacks comes from the M15 file');
  });

  it('a backtest runs on a metal, an index and a crypto month of the real data', async () => {
    const user = await funded(t, 10);
    const runs: [string, string, number][] = [['XAUUSD', 'H4', 50], ['US500', 'H1', 20], ['BTC-USD', 'H1', 200]];
    for (const [symbol, timeframe, sl] of runs) {
      const res = await runBacktest(t, user.key, { symbol, timeframe, start_date: '2023-08-01', end_date: '2023-08-31', sl_pips: sl, tp1_pips: sl, tp2_pips: 2 * sl });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.statistics.global.trades > 0, `${symbol}: ${res.body.statistics.global.trades} trades`);
    }
  });
});
