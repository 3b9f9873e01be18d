// optimize() (docs/engine.md §14): the space, the ranking, and each combination's trades and
// figures exactly those of runBacktest with the same request (a random sample of 50).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runBacktest, type Candles } from '@bt/core';
import { CombinationEvaluator, ParameterSpace, combinationRequest, optimize, rankEvaluations, type Evaluation, type OptimizationBase, type SearchSpace } from '@bt/core/optimize';
import { seededRandom } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';

const fixtures = join(import.meta.dirname, '../../../fixtures');
let h1: Candles | undefined;
const eurusdH1 = async () => (h1 ??= (await readCandlesFile(join(fixtures, 'official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' })).candles);

test('each combination’s trades and figures are runBacktest’s (50 drawn at random from three spaces)', async () => {
  const candles = await eurusdH1();
  const cases: { base: OptimizationBase; space: SearchSpace; period?: { from: number; to: number } }[] = [
    {
      base: { strategy: 'fvg_pullback_multi_rsi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20 },
      space: { params: { min_wait_candles: [0, 1, 3], max_wait_candles: [5, 20], min_overlap_ratio: [null, 0.25, 0.5], rsi_threshold: [35, 45], confirm_candle: [false, true] }, slPips: [10, 20, 30], tp1Pips: [10, 25] },
    },
    {
      base: { strategy: 'englobante_entry_ema', symbol: 'EURUSD', slMode: 'internal', costs: { spreadByHour: Array.from({ length: 24 }, (_, h) => (h < 7 ? 2 : 1)), slippagePips: 0.5, commissionPips: 0.7 } },
      space: { params: { ema_key: [20, 50, 100], confirm_candle: [false, true] }, tp1Pips: [10, 20, 40], tp2Pips: [30, 60] },
      period: { from: Date.UTC(2017, 6, 1), to: Date.UTC(2017, 11, 31, 23, 59) },
    },
    {
      base: { strategy: 'ob_pullback_gap', symbol: 'EURUSD', slPips: 15, tp1Pips: 15, costs: { spreadPips: 1.3 } },
      space: { params: { ob_side: ['both', 'bullish', 'bearish'], allow_multiple_entries: [false, true], max_touch: [1, 3], min_pips: [0, 3] }, tp2Pips: [30, 45] },
    },
  ];
  const rand = seededRandom(19);
  let checked = 0;
  for (const [n, { base, space, period }] of cases.entries()) {
    const grid = new ParameterSpace(base.strategy, space, base.slMode ?? 'external');
    const evaluator = new CombinationEvaluator(candles, base, period);
    const whole = optimize(candles, { ...base, ...period, space, minTrades: 0 });
    const byIndex = new Map(whole.ranked.map((r) => [r.index, r]));
    const sample = new Set<number>();
    const want = n === 2 ? 16 : 17;
    while (sample.size < want) sample.add(Math.floor(rand() * grid.size));
    for (const index of [...sample].sort((a, b) => a - b)) {
      const c = grid.combination(index);
      const expected = await runBacktest(candles, combinationRequest(base, c, period));
      assert.deepEqual(evaluator.trades(c), expected.trades, `${base.strategy} #${index}: trades`);
      const evaluation = evaluator.evaluate(c);
      assert.equal(evaluation.error, null);
      assert.deepEqual(evaluation.params, expected.params, `${base.strategy} #${index}: params`);
      assert.deepEqual(evaluation.figures!.tp1, expected.statistics.global.tp1, `${base.strategy} #${index}: TP1 figures`);
      assert.deepEqual(evaluation.figures!.tp2, expected.statistics.global.tp2, `${base.strategy} #${index}: TP2 figures`);
      assert.deepEqual(byIndex.get(index)!.figures, evaluation.figures, `${base.strategy} #${index}: in optimize()`);
      checked++;
    }
  }
  assert.equal(checked, 50);
});

test('the space: dimensions by engine stage, exits fastest; combinations by index; a seeded random subset', () => {
  const space = new ParameterSpace('fvg_pullback_multi_rsi', { slPips: [10, 20], params: { RSI: [7, 14], min_pips: [0, 2], min_wait_candle: ['1', 2] } }, 'external');
  assert.deepEqual(space.dimensions.map((d) => [d.name, d.stage]), [['min_pips', 'detection'], ['rsi_key', 'entries'], ['min_wait_candles', 'entries'], ['sl_pips', 'exits']]);
  assert.deepEqual(space.dimensions[1].values, ['RSI_7', 'RSI_14'], 'values through the catalogue’s coercion');
  assert.equal(space.size, 16);
  assert.deepEqual(space.combination(0), { index: 0, params: { min_pips: 0, rsi_key: 'RSI_7', min_wait_candles: 1 }, slPips: 10 });
  assert.deepEqual(space.combination(15), { index: 15, params: { min_pips: 2, rsi_key: 'RSI_14', min_wait_candles: 2 }, slPips: 20 });
  assert.deepEqual(space.combination(1).slPips, 20, 'exits vary fastest');
  assert.deepEqual(space.indices(), Array.from({ length: 16 }, (_, i) => i));
  const random = space.indices({ kind: 'random', count: 5, seed: 3 });
  assert.equal(new Set(random).size, 5);
  assert.deepEqual(random, [...random].sort((a, b) => a - b));
  assert.deepEqual(space.indices({ kind: 'random', count: 5, seed: 3 }), random);
  assert.notDeepEqual(space.indices({ kind: 'random', count: 5, seed: 4 }), random);
  assert.equal(space.indices({ kind: 'random', count: 99 }).length, 16, 'a count past the size is the whole grid');
});

test('the space refuses what the catalogue refuses, named', () => {
  const bad: [string, SearchSpace, 'external' | 'internal', RegExp][] = [
    ['ob_pullback_gap', { params: { min_wait_candels: [1] } }, 'external', /unknown parameter: "min_wait_candels" .*did you mean min_wait_candles\?/],
    ['ob_pullback_gap', { params: { rsi_threshold: [30] } }, 'external', /unknown parameter: "rsi_threshold" \(ob_pullback_gap does not read it/],
    ['ob_pullback_gap', { params: { max_touch: [0] } }, 'external', /invalid max_touch: 0 \(expected an integer ≥ 1\)/],
    ['ob_pullback_gap', { params: { max_touch: [] } }, 'external', /^invalid space: params.max_touch: expected a non-empty list of values$/],
    ['ob_pullback_gap', { params: { min_wait_candles: [1], min_wait_candle: [2] } }, 'external', /the same parameter as params.min_wait_candles/],
    ['ob_pullback_gap', { slPips: [10, -5] }, 'external', /^invalid space: sl_pips: -5 \(expected a number of pips > 0\)$/],
    ['ob_pullback_gap', { slPips: [10] }, 'internal', /internal stops sit at the zone edge/],
    ['nope', {}, 'external', /invalid strategy: "nope"/],
  ];
  for (const [strategy, space, mode, message] of bad) assert.throws(() => new ParameterSpace(strategy, space, mode), (e: Error) => message.test(e.message), JSON.stringify(space));
  const big = new ParameterSpace('ob_pullback_gap', { params: { min_wait_candles: Array.from({ length: 500 }, (_, i) => i), max_wait_candles: Array.from({ length: 500 }, (_, i) => i + 500) } }, 'external');
  assert.throws(() => big.indices(), /invalid space: 250,000 combinations \(at most 200,000 in a grid: use a random search of fewer\)$/);
  assert.equal(big.indices({ kind: 'random', count: 1000 }).length, 1000);
});

test('a combination the rules refuse is reported with its message, not thrown', async () => {
  const candles = await eurusdH1();
  const r = optimize(candles, { strategy: 'ob_pullback_pure', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, space: { params: { min_wait_candles: [2, 8], max_wait_candles: [5, 10] } }, minTrades: 1 });
  assert.equal(r.evaluated, 4);
  assert.equal(r.failed, 1);
  const failed = r.ranked.find((e) => e.error !== null)!;
  assert.match(failed.error!, /^invalid min_wait_candles: 8 \(expected at most max_wait_candles \(5\)\)$/);
  assert.equal(r.ranked.at(-1), failed, 'failed combinations last');
  assert.equal(failed.rank, null);
  // A column the data lacks and bt does not compute: refused as runBacktest refuses it.
  const columns = optimize(candles, { strategy: 'englobante_entry_ema', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, space: { params: { ema_key: [50, 'SMA_20'] } }, minTrades: 1 });
  assert.equal(columns.failed, 1);
  assert.match(columns.ranked.at(-1)!.error!, /^invalid ema_key: "SMA_20"/);
  await assert.rejects(runBacktest(candles, { strategy: 'englobante_entry_ema', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, params: { ema_key: 'SMA_20' } }), /^ParamError: invalid ema_key: "SMA_20"/);
});

test('ranking: eligible by score, then more resolved trades, then grid order; a profit factor without loss ranks first', () => {
  const figures = (resolved: number, wins: number, total: number, pf: number | null) => {
    const f = { resolved, wins, losses: resolved - wins, open: 0, winrate: resolved ? wins / resolved : null, winrateCi95: resolved ? ([0.1, 0.9] as const) : null, expectancyR: resolved ? total / resolved : null, totalR: total, profitFactor: pf, maxDrawdownR: 0, longestLosingStreak: 0 };
    return { trades: resolved, tp1: f, tp2: f };
  };
  const e = (index: number, fig: ReturnType<typeof figures> | null, error: string | null = null): Evaluation => ({ index, params: {}, slPips: 10, tp1Pips: 10, tp2Pips: 20, figures: fig, error });
  const evaluations = [e(0, figures(40, 20, 4, 1.2)), e(1, figures(50, 25, 5, 1.2)), e(2, figures(10, 9, 8, 9)), e(3, null, 'bad'), e(4, figures(40, 20, 5, 1.3)), e(5, figures(30, 30, 30, null))];
  const byExpectancy = rankEvaluations(evaluations, { objective: 'expectancy', minTrades: 30 });
  assert.deepEqual(byExpectancy.map((r) => [r.index, r.rank]), [[5, 1], [4, 2], [1, 3], [0, 4], [2, null], [3, null]]);
  assert.equal(byExpectancy.find((r) => r.index === 2)!.eligible, false, '10 trades < 30');
  const byPf = rankEvaluations(evaluations, { objective: 'profit_factor', minTrades: 30 });
  assert.deepEqual(byPf.map((r) => r.index).slice(0, 4), [5, 4, 1, 0], 'no loss first; equal 1.2: more resolved trades first');
  assert.throws(() => rankEvaluations(evaluations, { objective: 'sharpe' as 'expectancy' }), /^Error: invalid objective: "sharpe" \(expected expectancy, profit_factor, winrate_low\)$/);
});

test('the exit grid: evaluateMany judges every combination of a grid exactly as evaluate() walks it (both sides, resting and market entries, costs)', async () => {
  const candles = await eurusdH1();
  const costs = { spreadByHour: Array.from({ length: 24 }, (_, h) => (h < 7 ? 2.5 : 1.1)), slippagePips: 0.5, commissionPips: 0.7 };
  const cases: { base: OptimizationBase; space: SearchSpace }[] = [
    // Pullback (resting orders), with and without costs; TP2 by default (2 × TP1) in the first.
    { base: { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20 }, space: { params: { max_wait_candles: [5, 30] }, slPips: [5, 10, 20, 40, 80], tp1Pips: [5, 15, 30, 60] } },
    { base: { strategy: 'ob_pullback_pure', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, costs }, space: { params: { min_wait_candles: [0, 2] }, slPips: [8, 16, 32], tp1Pips: [8, 16, 50], tp2Pips: [10, 40, 400] } },
    // Market entries at the next open, slipped with costs.
    { base: { strategy: 'englobante_entry', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, costs }, space: { params: { confirm_candle: [false, true] }, slPips: [5, 20, 60], tp1Pips: [5, 20, 60], tp2Pips: [30, 400] } },
  ];
  for (const { base, space } of cases) {
    const grid = new ParameterSpace(base.strategy, space, 'external');
    const combinations = grid.indices().map((i) => grid.combination(i));
    const walked = new CombinationEvaluator(candles, base).evaluateMany([]);
    assert.deepEqual(walked, []);
    const one = new CombinationEvaluator(candles, base);
    const expected = combinations.map((c) => one.evaluate(c));
    const many = new CombinationEvaluator(candles, base).evaluateMany(combinations);
    assert.deepEqual(many, expected, base.strategy);
    // A grid too large for memory is cut into smaller ones, with the same figures.
    const cells = CombinationEvaluator.gridCells;
    try {
      CombinationEvaluator.gridCells = 4000; // 364 to 632 entries: batches of 1 to 16 combinations
      assert.deepEqual(new CombinationEvaluator(candles, base).evaluateMany(combinations), expected, `${base.strategy}, cut grids`);
    } finally {
      CombinationEvaluator.gridCells = cells;
    }
    const sum = (f: (e: Evaluation) => number) => expected.reduce((a, e) => a + f(e), 0);
    assert.ok(sum((e) => e.figures!.tp1.wins) > 0 && sum((e) => e.figures!.tp2.losses) > 0 && sum((e) => e.figures!.tp2.open) > 0, `${base.strategy}: wins, losses and open trades`);
  }
});
