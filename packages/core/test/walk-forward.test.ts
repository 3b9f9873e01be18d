// Walk-forward (docs/engine.md §14): folds, and the property that the parameters chosen for a
// fold never depend on the candles of its own out-of-sample window (nor on any later one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { candlesFromColumns, runBacktest, type Candles } from '@bt/core';
import { combinationRequest, walkForward, walkForwardFolds, type WalkForwardOptions } from '@bt/core/optimize';
import { seededRandom } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';

const DAY = 86_400_000;
const fixtures = join(import.meta.dirname, '../../../fixtures');
let h1: Candles | undefined;
const eurusdH1 = async () => (h1 ??= (await readCandlesFile(join(fixtures, 'official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' })).candles);

test('folds: rolling and anchored windows, the step, empty windows skipped, too little data refused', () => {
  const t0 = Date.UTC(2024, 0, 1);
  const time = Float64Array.from({ length: 100 }, (_, i) => t0 + i * DAY);
  const rolling = walkForwardFolds(time, { mode: 'rolling', inSampleMs: 30 * DAY, outOfSampleMs: 10 * DAY });
  assert.equal(rolling.length, 7);
  assert.deepEqual(rolling[0], { index: 0, inSample: { from: t0, to: t0 + 30 * DAY - 1 }, outOfSample: { from: t0 + 30 * DAY, to: t0 + 40 * DAY - 1 } });
  assert.deepEqual(rolling[1].inSample, { from: t0 + 10 * DAY, to: t0 + 40 * DAY - 1 });
  assert.deepEqual(rolling[6].outOfSample, { from: t0 + 90 * DAY, to: t0 + 99 * DAY }, 'the last window is cut at the last candle');
  const anchored = walkForwardFolds(time, { mode: 'anchored', inSampleMs: 30 * DAY, outOfSampleMs: 10 * DAY, stepMs: 20 * DAY });
  assert.deepEqual(anchored.map((f) => [f.inSample.from, f.outOfSample.from]), [[t0, t0 + 30 * DAY], [t0, t0 + 50 * DAY], [t0, t0 + 70 * DAY], [t0, t0 + 90 * DAY]]);
  const gappy = Float64Array.from([...time.slice(0, 40), ...time.slice(60)]);
  assert.equal(walkForwardFolds(gappy, { mode: 'rolling', inSampleMs: 30 * DAY, outOfSampleMs: 10 * DAY }).length, 5, 'two windows without candles');
  assert.throws(() => walkForwardFolds(time, { mode: 'rolling', inSampleMs: 200 * DAY, outOfSampleMs: 10 * DAY }), /is not longer than one in-sample window of 200 days/);
  assert.throws(() => walkForwardFolds(time, { mode: 'sliding' as 'rolling', inSampleMs: DAY, outOfSampleMs: DAY }), /invalid folds.mode: "sliding"/);
  assert.throws(() => walkForwardFolds(time, { mode: 'rolling', inSampleMs: 0, outOfSampleMs: DAY }), /invalid folds.inSampleMs: 0/);
  // A step shorter than the out-of-sample window: its trades pooled two or three times over.
  assert.throws(() => walkForwardFolds(time, { mode: 'rolling', inSampleMs: 30 * DAY, outOfSampleMs: 10 * DAY, stepMs: 5 * DAY }), {
    message: 'invalid folds.stepMs: 432000000 (expected at least outOfSampleMs, 864000000: overlapping out-of-sample windows would count their trades more than once)',
  });
  assert.equal(walkForwardFolds(time, { mode: 'rolling', inSampleMs: 30 * DAY, outOfSampleMs: 10 * DAY, stepMs: 10 * DAY }).length, rolling.length, 'a step of the window itself');
  const hourly = Float64Array.from({ length: 1000 }, (_, i) => t0 + i * 3_600_000);
  assert.throws(() => walkForwardFolds(hourly, { mode: 'rolling', inSampleMs: DAY, outOfSampleMs: 3_600_000 }), /invalid folds: more than 500 \(out-of-sample windows of 1 hour over/);
  assert.throws(() => walkForwardFolds(time, { mode: 'rolling', inSampleMs: DAY, outOfSampleMs: 60_000 }), /invalid folds: more than 500 \(steps of 1 minute over/);
});

const OPTIONS: WalkForwardOptions = {
  strategy: 'englobante_entry',
  symbol: 'EURUSD',
  slPips: 20,
  tp1Pips: 20,
  space: { params: { confirm_candle: [false, true] }, slPips: [10, 20, 30], tp1Pips: [10, 20, 40] },
  folds: { mode: 'rolling', inSampleMs: 60 * DAY, outOfSampleMs: 30 * DAY },
  minTrades: 10,
  costs: { spreadPips: 1.3 },
};

/** The candles with the rows inside [from, to] permuted among themselves (times stay). */
function shuffled(candles: Candles, from: number, to: number, seed: number): Candles {
  const idx = [...candles.time.keys()].filter((i) => candles.time[i] >= from && candles.time[i] <= to);
  const rand = seededRandom(seed);
  const perm = [...idx];
  for (let k = perm.length - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    [perm[k], perm[j]] = [perm[j], perm[k]];
  }
  const move = (a: Float64Array) => {
    const b = a.slice();
    idx.forEach((i, k) => (b[i] = a[perm[k]]));
    return b;
  };
  return candlesFromColumns({ time: candles.time, open: move(candles.open), high: move(candles.high), low: move(candles.low), close: move(candles.close), volume: move(candles.volume) }, { symbol: candles.symbol, timeframe: candles.timeframe });
}

const choice = (f: { chosen: { index: number; figures: unknown } | null }) => (f.chosen ? { index: f.chosen.index, figures: f.chosen.figures } : null);

test('out of sample never decides: shuffling a fold’s out-of-sample candles changes no choice up to that fold', async () => {
  const candles = await eurusdH1();
  const full = walkForward(candles, OPTIONS);
  assert.ok(full.folds.length >= 6, `${full.folds.length} folds`);
  assert.ok(full.folds.filter((f) => f.chosen).length >= 4, 'most folds trade');
  for (const k of [0, 2, full.folds.length - 2]) {
    const fold = full.folds[k];
    const changed = walkForward(shuffled(candles, fold.outOfSample.from, fold.outOfSample.to, 100 + k), OPTIONS);
    for (let i = 0; i <= k; i++) assert.deepEqual(choice(changed.folds[i]), choice(full.folds[i]), `fold ${i} after shuffling fold ${k}'s out-of-sample candles`);
    // The shuffled candles do move this fold's out-of-sample result: the property is not vacuous.
    assert.notDeepEqual(changed.folds[k].outOfSampleTrades, fold.outOfSampleTrades, `fold ${k}: its own out-of-sample trades moved`);
    // And shuffling its in-sample candles changes what was seen in sample.
    const inSample = walkForward(shuffled(candles, fold.inSample.from, fold.inSample.to, 200 + k), OPTIONS);
    assert.notDeepEqual(choice(inSample.folds[k]), choice(fold), `fold ${k}: its in-sample candles do decide`);
  }
});

test('each fold’s out-of-sample trades are runBacktest’s with the chosen parameters on that window; the summary pools them', async () => {
  const candles = await eurusdH1();
  const wf = walkForward(candles, { ...OPTIONS, folds: { mode: 'anchored', inSampleMs: 90 * DAY, outOfSampleMs: 45 * DAY } });
  let trades = 0;
  for (const f of wf.folds) {
    if (!f.chosen) {
      assert.deepEqual(f.outOfSampleTrades, []);
      continue;
    }
    assert.equal(f.inSample.from, Math.floor(candles.time[0] / DAY) * DAY, 'anchored at the first candle’s day');
    const c = { params: f.chosen.params, slPips: f.chosen.slPips ?? undefined, tp1Pips: f.chosen.tp1Pips ?? undefined, tp2Pips: f.chosen.tp2Pips ?? undefined };
    const expected = await runBacktest(candles, combinationRequest(OPTIONS, c, f.outOfSample));
    assert.deepEqual(f.outOfSampleTrades, expected.trades, `fold ${f.index}`);
    assert.deepEqual(f.outOfSampleFigures, expected.statistics.global.tp1);
    trades += expected.trades.length;
  }
  assert.equal(wf.outOfSampleTrades.length, trades);
  assert.deepEqual(wf.outOfSampleTrades.map((t) => t.id), Array.from({ length: trades }, (_, i) => i + 1));
  assert.equal(wf.outOfSample.global.trades, trades);
  const s = wf.survival;
  assert.equal(s.outOfSample.resolved, wf.outOfSample.global.resolved);
  if (s.inSample.expectancyR !== null && s.inSample.expectancyR > 0 && s.outOfSample.expectancyR !== null) {
    assert.ok(Math.abs(s.expectancyRatio! - s.outOfSample.expectancyR / s.inSample.expectancyR) < 1e-6);
  }
});
