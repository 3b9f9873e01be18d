import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candlesFromColumns } from '@bt/core/candles';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

// An empty library of its own: the series imported here would change the fixture library's counts.
const t = useTestApp();

describe(`dataset store, warm-up months (${TEST_DIALECT})`, () => {
  it('a sparse series whose 24 months before the period hold too few candles is loaded from its first month', async () => {
    // One daily candle per month for 40 months, then 5 days in the period's month: the 24 months
    // before it hold 24 candles, fewer than the 500 of the warm-up, so every earlier month is read.
    const times: number[] = [];
    for (let m = 0; m < 40; m++) times.push(Date.UTC(2019, m, 3));
    for (let d = 2; d <= 6; d++) times.push(Date.UTC(2022, 4, d));
    const close = Float64Array.from(times, (_, i) => 1800 + i);
    const sparse = candlesFromColumns(
      { time: Float64Array.from(times), open: close, high: close.map((c) => c + 2), low: close.map((c) => c - 2), close, volume: new Float64Array(times.length) },
      { symbol: 'XAUUSD', timeframe: 'D1' },
    );
    await t.app.services.datasets.importSeries(sparse, { symbol: 'XAUUSD', timeframe: 'D1', source: 'test: one candle a month' });
    const loaded = (await t.app.services.datasets.load('XAUUSD', 'D1', Date.UTC(2022, 4, 1), Date.UTC(2022, 4, 31, 23, 59, 59, 999)))!;
    assert.equal(loaded.start, 40, 'all 40 earlier candles, not only the 24 of the last 24 months');
    assert.equal(loaded.inPeriod, 5);
    assert.equal(loaded.datasets.length, 41);
    assert.equal(loaded.candles.time[0], Date.UTC(2019, 0, 3));
    // With enough candles in the warm-up window, only what it needs is read.
    const later = (await t.app.services.datasets.load('XAUUSD', 'D1', Date.UTC(2022, 4, 1), Date.UTC(2022, 4, 31), 10))!;
    assert.equal(later.start, 10);
    assert.equal(later.datasets.length, 11, "the period's month and the 10 holding the warm-up");
  });
});
