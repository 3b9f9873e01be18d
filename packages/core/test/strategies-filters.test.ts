import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StrategyDefinition } from '@bt/core';
import { filterMasks, filterColumnNames, officialPlan, pullbackRulesFromParams } from '@bt/core/strategies';
import { runEngine } from '../src/backtest/engine.js';
import { bars, flat, type Bar } from './engine-fixtures.js';

const series = (closes: number[]) => bars(closes.map((c) => flat(c)));

test('RSI filter: buy below the threshold, sell above 100 minus it; NaN (warm-up) refuses', () => {
  const s = series([1, 1, 1, 1, 1]);
  const masks = filterMasks(s, ['rsi'], { rsi: Float64Array.of(NaN, 39.9, 40, 60, 60.1), rsiThreshold: 40 })!;
  assert.deepEqual(Array.from(masks.buy), [0, 1, 0, 0, 0]);
  assert.deepEqual(Array.from(masks.sell), [0, 0, 0, 0, 1]);
  const fifty = filterMasks(s, ['rsi'], { rsi: Float64Array.of(49, 50, 51, 50, 50), rsiThreshold: 50 })!;
  assert.deepEqual([Array.from(fifty.buy), Array.from(fifty.sell)], [[1, 0, 0, 0, 0], [0, 0, 1, 0, 0]]);
});

test('simple EMA filter: buy when the close is above the EMA, sell when below', () => {
  const s = series([10, 10, 10, 10]);
  const masks = filterMasks(s, ['ema_simple'], { ema: Float64Array.of(9, 10, 11, NaN) })!;
  assert.deepEqual([Array.from(masks.buy), Array.from(masks.sell)], [[1, 0, 0, 0], [0, 0, 1, 0]]);
});

test('trend EMA filter: buy when fast is above slow, sell when below', () => {
  const s = series([1, 1, 1]);
  const masks = filterMasks(s, ['tendance_ema'], { emaFast: Float64Array.of(2, 1, 1), emaSlow: Float64Array.of(1, 1, 2) })!;
  assert.deepEqual([Array.from(masks.buy), Array.from(masks.sell)], [[1, 0, 0], [0, 0, 1]]);
});

test('combined filters must all pass; no filter means no mask', () => {
  const s = series([10, 10, 10, 10]);
  const masks = filterMasks(s, ['tendance_ema', 'rsi'], {
    emaFast: Float64Array.of(2, 2, 0, 0), emaSlow: Float64Array.of(1, 1, 1, 1), rsi: Float64Array.of(30, 50, 70, 50), rsiThreshold: 40,
  })!;
  assert.deepEqual([Array.from(masks.buy), Array.from(masks.sell)], [[1, 0, 0, 0], [0, 0, 1, 0]]);
  assert.equal(filterMasks(s, [], {}), null);
  assert.throws(() => filterMasks(s, ['rsi'], {}), /missing rsi column/);
});

test('filter columns from parameters: names as given, bare periods, defaults', () => {
  assert.deepEqual(filterColumnNames(['rsi', 'ema_simple'], {}), { rsi: 'RSI', ema: 'EMA_50' });
  assert.deepEqual(filterColumnNames(['tendance_ema'], { ema_fast: 20, ema_slow: '100' }), { emaFast: 'EMA_20', emaSlow: 'EMA_100' });
  assert.deepEqual(filterColumnNames(['rsi'], { rsi_key: 'RSI_14' }), { rsi: 'RSI_14' });
  assert.throws(() => filterColumnNames(['rsi'], { rsi_key: '' }), /invalid rsi_key/);
});

test('pullback rules from parameters, with clear errors', () => {
  assert.deepEqual(pullbackRulesFromParams({}), { minWait: 3, maxWait: 20, overlapRatio: undefined, maxTouch: Infinity, allowMultiple: false });
  assert.deepEqual(pullbackRulesFromParams({ min_wait_candles: 1, max_wait_candles: 5, min_overlap_ratio: 0.25, max_touch: 2, allow_multiple_entries: true }), { minWait: 1, maxWait: 5, overlapRatio: 0.25, maxTouch: 2, allowMultiple: true });
  assert.throws(() => pullbackRulesFromParams({ min_overlap_ratio: 25 }), /invalid min_overlap_ratio: 25/);
  assert.throws(() => pullbackRulesFromParams({ min_wait_candles: 1.5 }), /invalid min_wait_candles: 1.5/);
});

const def = (key: string, family: StrategyDefinition['family'], entryMode: StrategyDefinition['entryMode'], filters: StrategyDefinition['filters']): StrategyDefinition => ({
  key, family, entryMode, filters, label: key, short: '', description: '', entryRules: [], params: [],
});

// Bullish FVG [101, 103] at candle 2, touched at candles 5 and 6.
const ROWS: Bar[] = [[100, 101, 99, 100.5], [100.5, 104, 100.4, 103.8], [103.8, 105, 103, 104.5], [104.5, 104.8, 103.5, 104.6], [104.5, 104.8, 103.5, 104.6], [104, 104.2, 102.5, 103.8], [104, 104.2, 102.5, 103.8], [103.8, 106, 103.7, 105.9]];
const EXITS = { slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, pipSize: 0.1 } as const;

test('a pullback strategy reads its filter on the candle before the entry', () => {
  const plan = officialPlan(def('fvg_pullback_multi_rsi', 'fvg_pullback_multi', 'pullback', ['rsi']));
  const rsi = [NaN, 50, 50, 50, 50, 35, 50, 50];
  const refusedThenFilled = runEngine(bars(ROWS, { extra: { RSI: rsi } }), { plan, params: { rsi_threshold: 40 }, exits: EXITS });
  assert.deepEqual(refusedThenFilled.simulation.trades.map((t) => [t.entryIndex, t.side, t.orderPrice]), [[6, 'buy', 103]], 'RSI 35 on candle 5 allows the entry at 6');
  const limited = runEngine(bars(ROWS, { extra: { RSI: rsi } }), { plan, params: { rsi_threshold: 40, max_touch: 1 }, exits: EXITS });
  assert.equal(limited.simulation.trades.length, 0, 'the refused touch at 5 used the only touch');
  const unfiltered = runEngine(bars(ROWS), { plan: officialPlan(def('fvg_pullback_multi', 'fvg_pullback_multi', 'pullback', [])), params: {}, exits: EXITS });
  assert.deepEqual(unfiltered.simulation.trades.map((t) => t.entryIndex), [5]);
});

test('a signal strategy reads its filter on the signal candle and enters at the next open', () => {
  const plan = officialPlan(def('fvg_impulsive_ema', 'fvg_impulsive', 'signal', ['ema_simple']));
  const at2 = [NaN, NaN, 104, 200, 200, 200, 200, 200];
  const run = runEngine(bars(ROWS, { extra: { EMA_50: at2 } }), { plan, params: { ema_key: 'EMA_50' }, exits: EXITS });
  assert.deepEqual(run.simulation.trades.map((t) => [t.signalTime, t.entryIndex, t.entryPrice]), [[bars(ROWS).time[2], 3, 104.5]]);
  const refused = runEngine(bars(ROWS, { extra: { EMA_50: [NaN, NaN, 105, 0, 0, 0, 0, 0] } }), { plan, params: {}, exits: EXITS });
  assert.equal(refused.simulation.trades.length, 0);
});

test('min_pips is in pips for pullback families and in price units for the impulsive family', () => {
  const pullback = officialPlan(def('fvg_pullback_multi', 'fvg_pullback_multi', 'pullback', []));
  assert.equal(pullback.detect(bars(ROWS), { min_pips: 20 }, 0.1).count, 1, 'gap 2.0 = 20 pips of 0.1');
  assert.equal(pullback.detect(bars(ROWS), { min_pips: 21 }, 0.1).count, 0);
  const impulsive = officialPlan(def('fvg_impulsive', 'fvg_impulsive', 'signal', []));
  assert.equal(impulsive.detect(bars(ROWS), { min_pips: 2 }, 0.1).count, 1);
  assert.equal(impulsive.detect(bars(ROWS), { min_pips: 2.5 }, 0.1).count, 0);
});

test('ob_side keeps bullish or bearish order blocks; confirm_candle shifts every family', () => {
  const ob: Bar[] = [flat(101), [100.8, 101, 99, 99.5], [99.5, 102.2, 99.4, 102], [102, 103, 101.5, 102.8], [102.8, 102.9, 100, 100.2], [100.2, 100.3, 98, 98.1]];
  const plan = officialPlan(def('ob_pullback_pure', 'ob_pullback_pure', 'pullback', []));
  const all = plan.detect(bars(ob), {}, 0.1);
  assert.deepEqual(Array.from(all.side), [1, -1]);
  assert.deepEqual(Array.from(plan.detect(bars(ob), { ob_side: 'bearish' }, 0.1).side), [-1]);
  assert.deepEqual(Array.from(plan.detect(bars(ob), { ob_side: 'bullish' }, 0.1).side), [1]);
  assert.throws(() => plan.detect(bars(ob), { ob_side: 'up' }, 0.1), /invalid ob_side: "up"/);
  assert.deepEqual(Array.from(plan.detect(bars(ob), { confirm_candle: true }, 0.1).confirmedAt), [3, 5]);
});

test('a filter column that is neither in the data nor computable is refused naming its parameter, before any work', async () => {
  const { checkFilterColumns, filterColumnNames } = await import('../src/strategies/params.js');
  const { ParamError } = await import('../src/params/errors.js');
  const candles = { extra: { RSI_14: new Float64Array(0), Tickvol: new Float64Array(0) } } as never;
  const names = (params: Record<string, string>) => filterColumnNames(['rsi', 'tendance_ema'], params);
  assert.doesNotThrow(() => checkFilterColumns(candles, names({}), {}));
  assert.doesNotThrow(() => checkFilterColumns(candles, names({ rsi_key: 'Tickvol', ema_fast: 'EMA_9' }), { rsi_key: 'Tickvol', ema_fast: 'EMA_9' }));
  for (const [param, value] of [['rsi_key', '1e+308'], ['ema_fast', 'close_x'], ['ema_slow', 'RSI14']] as const) {
    const params = { [param]: value };
    assert.throws(() => checkFilterColumns(candles, names(params), params), (err: unknown) => err instanceof ParamError && err.param === param && err.value === value);
  }
});
