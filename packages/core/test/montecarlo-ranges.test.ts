// A bootstrap's runs split in ranges and merged (docs/engine.md §15, "Threads"): the merged
// result is monteCarlo's to the bit, whatever the split, and a bad set of ranges is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeMonteCarlo, monteCarlo, monteCarloRuns, monteCarloSize, splitRuns, type MonteCarloOptions, type MonteCarloRuns } from '@bt/core/montecarlo';
import { seededRandom } from '@bt/core/candles';

/** The ranges of a split computed apart and passed through a structured clone, as a worker's message is. */
function split(r: Float64Array, options: MonteCarloOptions, parts: number): MonteCarloRuns[] {
  return splitRuns(options.runs ?? 10_000, parts).map((g) => structuredClone(monteCarloRuns(r, options, g.from, g.to)));
}

test('splitRuns: contiguous ranges from 0 to runs, each starting at a multiple of 4, of about the same size', () => {
  for (let runs = 1; runs <= 90; runs++) {
    for (let parts = 1; parts <= 7; parts++) {
      const ranges = splitRuns(runs, parts);
      assert.equal(ranges.length, Math.min(parts, Math.ceil(runs / 4)), `${runs} runs in ${parts}`);
      let next = 0;
      for (const g of ranges) {
        assert.equal(g.from, next);
        assert.equal(g.from % 4, 0);
        assert.ok(g.to > g.from);
        next = g.to;
      }
      assert.equal(next, runs);
      // Whole groups of four runs, as many per range give or take one; the last range may lack up to 3 runs.
      const sizes = ranges.map((g) => g.to - g.from);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 7, `${runs} runs in ${parts}: ${sizes.join(', ')}`);
    }
  }
  assert.deepEqual(splitRuns(10_000, 4), [{ from: 0, to: 2500 }, { from: 2500, to: 5000 }, { from: 5000, to: 7500 }, { from: 7500, to: 10_000 }]);
  assert.deepEqual(splitRuns(3, 4), [{ from: 0, to: 3 }], 'fewer runs than parts: one range');
  for (const [runs, parts] of [[0, 2], [5, 0], [2.5, 2], [5, NaN]]) assert.throws(() => splitRuns(runs, parts), /invalid (runs|parts)/);
});

test('merged ranges give monteCarlo’s result to the bit, for splits in 1 to 5 ranges, on random sequences', () => {
  const rand = seededRandom(2024);
  for (let t = 0; t < 60; t++) {
    const n = 1 + Math.floor(rand() * (t % 4 === 0 ? 3 : 400));
    const r = Float64Array.from({ length: n }, () => (rand() < 0.45 ? -1 - rand() : rand() * 5 - 0.5));
    const options: MonteCarloOptions = {
      runs: 1 + Math.floor(rand() * 600),
      seed: Math.floor(rand() * 2 ** 32),
      riskPerTrade: 0.005 + rand() * 0.3,
      ruinLevel: 0.05 + rand() * 0.95,
      ...(t % 3 === 0 ? { trades: 1 + Math.floor(rand() * 80) } : {}),
      ...(t % 5 === 0 ? { percentiles: [1, 33.3, 50, 99.9, 100], bins: 1 + Math.floor(rand() * 60) } : {}),
    };
    const want = monteCarlo(r, options);
    for (let parts = 1; parts <= 5; parts++) assert.deepStrictEqual(mergeMonteCarlo(r, options, split(r, options, parts)), want, `sequence ${t}, ${parts} ranges`);
  }
});

test('edge cases: one trade, runs not a multiple of 4, fewer runs than ranges, a trade that ruins alone, overflowing R', () => {
  const cases: [string, Float64Array, MonteCarloOptions][] = [
    ['one trade', Float64Array.of(-1), { runs: 7, seed: 3 }],
    ['one winning trade, 50 per run', Float64Array.of(2.5), { runs: 13, trades: 50 }],
    ['1 run', Float64Array.of(1, -1, 0.5), { runs: 1 }],
    ['3 runs in 5 ranges', Float64Array.of(1, -1, 0.5, -2), { runs: 3, seed: 99 }],
    ['runs not a multiple of 4', Float64Array.of(1, -1, 0.5, -2, 3), { runs: 1001, seed: 5 }],
    // 1 + 0.02 × -60 < 0: the trade alone ruins (log growth -Infinity).
    ['a trade that ruins', Float64Array.of(1, -1, -60, 2, -1), { runs: 400, riskPerTrade: 0.02, ruinLevel: 1 }],
    // Cumulative R overflows to ±Infinity: drawdowns NaN or Infinity, as monteCarlo reports them.
    ['overflowing R', Float64Array.of(1.7e308, 1.7e308, -1.7e308, -1), { runs: 41, seed: 8 }],
  ];
  for (const [name, r, options] of cases) {
    const want = monteCarlo(r, options);
    for (let parts = 1; parts <= 5; parts++) assert.deepStrictEqual(mergeMonteCarlo(r, options, split(r, options, parts)), want, `${name}, ${parts} ranges`);
  }
  const ruin = monteCarlo(Float64Array.of(1, -1, -60, 2, -1), { runs: 400, riskPerTrade: 0.02, ruinLevel: 1 });
  assert.ok(ruin.riskOfRuin.ruinedRuns > 0 && ruin.riskOfRuin.ruinedRuns < 400, 'the ruining trade is drawn in some runs and not in others');
  const overflow = monteCarlo(Float64Array.of(1.7e308, 1.7e308, -1.7e308, -1), { runs: 41, seed: 8 });
  assert.ok(Number.isNaN(overflow.maxDrawdownR.max), 'a run that overflowed has the NaN drawdown monteCarlo reports');
});

test('ranges in any order, and ranges not aligned on 4, merge to the same result', () => {
  const r = Float64Array.of(2, -1, -1, 1.5, -1, 0.5, -1.2, 2, -1, -1, 3, -1);
  const options = { runs: 103, seed: 11 };
  const want = monteCarlo(r, options);
  const bounds = [0, 1, 2, 7, 50, 51, 103];
  const parts = bounds.slice(1).map((to, i) => monteCarloRuns(r, options, bounds[i], to));
  assert.deepStrictEqual(mergeMonteCarlo(r, options, parts.reverse()), want);
});

test('refused: a shuffle, a range outside the runs, gaps, overlaps, missing runs, figures of the wrong size', () => {
  const r = Float64Array.of(1, -1, 2, -0.5);
  const options = { runs: 20, seed: 4 };
  assert.throws(() => monteCarloRuns(r, { ...options, method: 'shuffle' }, 0, 20), /shuffle’s runs are sequential/);
  assert.throws(() => mergeMonteCarlo(r, { ...options, method: 'shuffle' }, []), /shuffle’s runs are sequential/);
  for (const [from, to] of [[-1, 4], [0, 21], [5, 5], [6, 2], [0.5, 4], [NaN, 4]]) assert.throws(() => monteCarloRuns(r, options, from, to), /invalid range of runs/, `[${from}, ${to})`);
  assert.throws(() => monteCarloRuns(new Float64Array(0), options, 0, 4), /no resolved trade/);
  assert.throws(() => monteCarloRuns(Float64Array.of(1, NaN), options, 0, 4), /NaN at trade 2/);
  assert.throws(() => monteCarloRuns(r, { runs: 0 }, 0, 1), /invalid runs/);
  const a = monteCarloRuns(r, options, 0, 8);
  const b = monteCarloRuns(r, options, 8, 20);
  const overlap = monteCarloRuns(r, options, 4, 20);
  assert.throws(() => mergeMonteCarlo(r, options, [a]), /end at run 8 of 20/);
  assert.throws(() => mergeMonteCarlo(r, options, [b]), /\[8, 20\) where run 0 of 20/);
  assert.throws(() => mergeMonteCarlo(r, options, [a, overlap]), /\[4, 20\) where run 8/);
  assert.throws(() => mergeMonteCarlo(r, options, [a, b, b]), /\[8, 20\) where run 20/);
  assert.throws(() => mergeMonteCarlo(r, options, []), /end at run 0 of 20/);
  assert.throws(() => mergeMonteCarlo(r, options, [a, { ...b, final: b.final.subarray(1) }]), /does not hold 12 runs’ figures/);
  assert.throws(() => mergeMonteCarlo(r, options, [a, { ...b, ruin: Float64Array.from(b.ruin) as unknown as Uint8Array }]), /does not hold/);
  assert.throws(() => mergeMonteCarlo(r, { ...options, runs: 12 }, [a, b]), /\[8, 20\)/);
  assert.deepStrictEqual(mergeMonteCarlo(r, options, [b, a]), monteCarlo(r, options));
});

test('monteCarloSize: the runs and draws per run monteCarlo will simulate, with its checks', () => {
  const r = Float64Array.of(1, -1, 2);
  assert.deepEqual(monteCarloSize(r, {}), { method: 'bootstrap', runs: 10_000, tradesPerRun: 3 });
  assert.deepEqual(monteCarloSize(r, { runs: 9, trades: 40 }), { method: 'bootstrap', runs: 9, tradesPerRun: 40 });
  assert.deepEqual(monteCarloSize(r, { method: 'shuffle', runs: 5 }), { method: 'shuffle', runs: 5, tradesPerRun: 3 });
  for (const [options, message] of [[{ runs: 0 }, /invalid runs/], [{ method: 'shuffle', trades: 4 }, /invalid trades/], [{ riskPerTrade: 1 }, /invalid riskPerTrade/]] as const) {
    assert.throws(() => monteCarloSize(r, options as MonteCarloOptions), message);
    assert.throws(() => monteCarlo(r, options as MonteCarloOptions), message);
  }
  assert.throws(() => monteCarloSize(Float64Array.of(Infinity), {}), /Infinity at trade 1/);
});
