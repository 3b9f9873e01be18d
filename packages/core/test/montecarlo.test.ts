// Monte Carlo on the R sequence (docs/engine.md §15): reproducible with a seed, the same draws as
// core's seededRandom, and percentiles that agree with the exact distribution of a small sequence
// enumerated by brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { monteCarlo, nearestRank, rSequence, sequenceFigures, type MonteCarloOptions } from '@bt/core/montecarlo';
import { seededRandom } from '@bt/core/candles';
import { runBacktest } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';
import { makeTrade } from './trade-factory.js';

const R = Float64Array.of(2, -1, -1, 1.5, -1, 0.5, -1.2, 2, -1, -1, 3, -1);

test('seeded: the same seed gives the same result, another seed another', () => {
  for (const method of ['bootstrap', 'shuffle'] as const) {
    const a = monteCarlo(R, { method, runs: 2000, seed: 42 });
    assert.deepEqual(monteCarlo(R, { method, runs: 2000, seed: 42 }), a, method);
    assert.notDeepEqual(monteCarlo(R, { method, runs: 2000, seed: 43 }).maxDrawdownR, a.maxDrawdownR, method);
    assert.equal(a.runs, 2000);
    assert.equal(a.seed, 42);
  }
  assert.deepEqual(monteCarlo(R, { runs: 500 }), monteCarlo(R, { runs: 500, seed: 1 }), 'seed 1 by default');
});

/** A plain implementation with core's seededRandom: the draws and figures the kernels must reproduce. */
function reference(r: Float64Array, o: Required<Pick<MonteCarloOptions, 'method' | 'runs' | 'seed' | 'riskPerTrade' | 'ruinLevel'>>) {
  const rand = seededRandom(o.seed);
  const runs: { dd: number; final: number; streak: number }[] = [];
  let ruined = 0;
  // A shuffle permutes the previous run's order (any fixed start gives a uniform permutation).
  const order = [...r.keys()];
  for (let run = 0; run < o.runs; run++) {
    const seq: number[] = [];
    for (let k = 0; k < r.length; k++) {
      if (o.method === 'bootstrap') seq.push(r[Math.floor(rand() * r.length)]);
      else {
        const j = k + Math.floor(rand() * (r.length - k));
        [order[k], order[j]] = [order[j], order[k]];
        seq.push(r[order[k]]);
      }
    }
    const f = sequenceFigures(seq);
    runs.push({ dd: f.maxDrawdownR, final: f.finalR, streak: f.longestLosingStreak });
    let equity = 1;
    let ruin = false;
    for (const x of seq) {
      equity *= 1 + o.riskPerTrade * x;
      if (equity <= 1 - o.ruinLevel + 1e-12) ruin = true;
    }
    if (ruin) ruined++;
  }
  return { runs, ruined };
}

test('the kernels draw exactly what core’s seededRandom draws', () => {
  for (const method of ['bootstrap', 'shuffle'] as const) {
    const o = { method, runs: 3000, seed: 7, riskPerTrade: 0.2, ruinLevel: 0.5 } as const;
    const mc = monteCarlo(R, { ...o, percentiles: [1, 10, 25, 50, 75, 90, 99, 100] });
    const ref = reference(R, o);
    const sorted = (k: 'dd' | 'final' | 'streak') => ref.runs.map((x) => x[k]).sort((a, b) => a - b);
    const r9 = (x: number) => Math.round(x * 1e9) / 1e9;
    for (const [name, key] of [['maxDrawdownR', 'dd'], ['finalR', 'final'], ['longestLosingStreak', 'streak']] as const) {
      const values = sorted(key);
      assert.deepEqual(mc[name].percentiles.map((p) => p.value), [1, 10, 25, 50, 75, 90, 99, 100].map((p) => r9(nearestRank(values, p))), `${method} ${name}`);
      assert.equal(mc[name].min, r9(values[0]));
      assert.equal(mc[name].max, r9(values.at(-1)!));
      assert.ok(Math.abs(mc[name].mean - values.reduce((a, b) => a + b, 0) / values.length) < 1e-8);
      assert.equal(mc[name].histogram.counts.reduce((a, b) => a + b, 0), 3000);
    }
    assert.equal(mc.riskOfRuin.ruinedRuns, ref.ruined, `${method} ruin`);
  }
});

/**
 * Every run's figures, one run at a time with core's seededRandom and Math.max: the plain form of
 * the kernels' arithmetic (the same additions in the same order, ruin on the sum of log growths),
 * which they must reproduce to the bit whatever they interleave or select (docs/engine.md §15).
 */
function plainRuns(r: Float64Array, o: { method: 'bootstrap' | 'shuffle'; runs: number; seed: number; trades: number; riskPerTrade: number; ruinLevel: number }) {
  const rand = seededRandom(o.seed);
  const order = [...r.keys()];
  const ruinAt = o.ruinLevel >= 1 ? -Infinity : Math.log(1 - o.ruinLevel);
  const figures = { maxDrawdownR: [] as number[], finalR: [] as number[], longestLosingStreak: [] as number[] };
  let ruined = 0;
  for (let run = 0; run < o.runs; run++) {
    let cum = 0, peak = 0, dd = 0, streak = 0, longest = 0, equity = 0, ruin = false;
    for (let k = 0; k < o.trades; k++) {
      let i: number;
      if (o.method === 'bootstrap') i = Math.floor(rand() * r.length);
      else {
        const j = k + Math.floor(rand() * (r.length - k));
        [order[k], order[j]] = [order[j], order[k]];
        i = order[k];
      }
      const x = r[i];
      cum += x;
      peak = Math.max(peak, cum);
      dd = Math.max(dd, peak - cum);
      streak = x < 0 ? streak + 1 : 0;
      longest = Math.max(longest, streak);
      const g = 1 + o.riskPerTrade * x;
      equity += g > 0 ? Math.log(g) : -Infinity;
      if (equity <= ruinAt) ruin = true;
    }
    figures.maxDrawdownR.push(dd);
    figures.finalR.push(cum);
    figures.longestLosingStreak.push(longest);
    if (ruin) ruined++;
  }
  return { figures, ruined };
}

test('every run’s figures are those of a plain one-run-at-a-time simulation (random sequences, any run count)', () => {
  const rand = seededRandom(20261126);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const r9 = (x: number) => Math.round(x * 1e9) / 1e9;
  const sequences: Float64Array[] = [];
  for (let s = 0; s < 24; s++) {
    const length = 1 + Math.floor(rand() * 40);
    sequences.push(Float64Array.from({ length }, () => pick([-1, 1, -1.12, 0.93, 2, -0.5, 0, Math.round((rand() * 6 - 3) * 100) / 100])));
  }
  // Cumulative R overflowing to ±Infinity: Math.max's NaN and Infinity drawdowns.
  sequences.push(Float64Array.of(1e308, 1.7e308, -1), Float64Array.of(-1.7e308, -1e308, 3));
  let cases = 0;
  for (const [s, r] of sequences.entries()) {
    for (const method of ['bootstrap', 'shuffle'] as const) {
      const runs = pick([1, 2, 3, 4, 5, 6, 7, 9, 31, 64, 101]);
      const o = {
        method,
        runs,
        seed: pick([0, 1, 0xffffffff, Math.floor(rand() * 2 ** 32)]),
        trades: method === 'bootstrap' && s % 3 === 0 ? 1 + Math.floor(rand() * 60) : r.length,
        riskPerTrade: pick([0.01, 0.2, 0.6]),
        ruinLevel: pick([0.1, 0.5, 1]),
      };
      // One percentile per rank: the percentiles are then the whole sorted distribution.
      const percentiles = Array.from({ length: runs }, (_, k) => (100 * (k + 1)) / runs);
      assert.deepEqual(percentiles.map((p) => nearestRank([...Array(runs).keys()], p)), [...Array(runs).keys()], 'one percentile per rank');
      const mc = monteCarlo(r, { ...o, percentiles });
      const plain = plainRuns(r, o);
      const what = `${method} [${r.join(', ')}] ${JSON.stringify(o)}`;
      for (const name of ['maxDrawdownR', 'finalR', 'longestLosingStreak'] as const) {
        const sorted = Float64Array.from(plain.figures[name]).sort();
        assert.deepEqual(mc[name].percentiles.map((p) => p.value), [...sorted].map(r9), `${what} ${name}`);
        assert.equal(mc[name].min, r9(sorted[0]), `${what} ${name} min`);
        assert.equal(mc[name].max, r9(sorted[runs - 1]), `${what} ${name} max`);
        assert.equal(mc[name].mean, r9(sorted.reduce((a, b) => a + b, 0) / runs), `${what} ${name} mean`);
      }
      assert.equal(mc.riskOfRuin.ruinedRuns, plain.ruined, `${what} ruin`);
      cases++;
    }
  }
  assert.equal(cases, 2 * sequences.length);
});

/** Every sequence a bootstrap (n^n, equally likely) or a shuffle (n!) can draw. */
function enumerate(r: readonly number[], method: 'bootstrap' | 'shuffle'): number[][] {
  const n = r.length;
  if (method === 'bootstrap') {
    const out: number[][] = [];
    for (let code = 0; code < n ** n; code++) {
      const seq: number[] = [];
      for (let k = 0, c = code; k < n; k++, c = Math.floor(c / n)) seq.push(r[c % n]);
      out.push(seq);
    }
    return out;
  }
  const perms = (items: number[]): number[][] => (items.length <= 1 ? [items] : items.flatMap((x, i) => perms([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p])));
  return perms([...r]);
}

test('percentiles agree with the exact distribution of a small sequence (brute force over every draw)', () => {
  const small = [2, -1, -1, 1.5, -1, -0.5];
  const risk = 0.25;
  for (const method of ['bootstrap', 'shuffle'] as const) {
    const all = enumerate(small, method);
    const exact = {
      maxDrawdownR: all.map((s) => sequenceFigures(s).maxDrawdownR),
      finalR: all.map((s) => sequenceFigures(s).finalR),
      longestLosingStreak: all.map((s) => sequenceFigures(s).longestLosingStreak),
    };
    const ruinShare = all.filter((s) => {
      let equity = 1;
      return s.some((x) => (equity *= 1 + risk * x) <= 0.5 + 1e-12);
    }).length / all.length;
    const runs = 200_000;
    const mc = monteCarlo(small, { method, runs, seed: 2024, riskPerTrade: risk, ruinLevel: 0.5, percentiles: [5, 25, 50, 75, 95] });
    // Five standard errors of a share estimated on 200,000 runs.
    const tolerance = 5 * Math.sqrt(0.25 / runs);
    for (const name of ['maxDrawdownR', 'finalR', 'longestLosingStreak'] as const) {
      const values = exact[name];
      const cdf = (v: number, strict: boolean) => values.filter((x) => (strict ? x < v - 1e-9 : x <= v + 1e-9)).length / values.length;
      for (const { p, value } of mc[name].percentiles) {
        // The nearest-rank percentile of the exact distribution is v with F(v-) < p <= F(v).
        assert.ok(cdf(value, true) <= p / 100 + tolerance && cdf(value, false) >= p / 100 - tolerance, `${method} ${name} p${p}: ${value} (F- ${cdf(value, true)}, F ${cdf(value, false)})`);
        const exactValue = nearestRank([...values].sort((a, b) => a - b), p);
        const nearBoundary = Math.abs(cdf(exactValue, false) - p / 100) < tolerance || Math.abs(cdf(exactValue, true) - p / 100) < tolerance;
        if (!nearBoundary) assert.equal(value, Math.round(exactValue * 1e9) / 1e9, `${method} ${name} p${p}: the exact percentile`);
      }
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
      assert.ok(Math.abs(mc[name].mean - mean) <= 5 * (sd / Math.sqrt(runs)) + 1e-9, `${method} ${name} mean ${mc[name].mean} vs ${mean}`);
    }
    assert.ok(Math.abs(mc.riskOfRuin.probability - ruinShare) <= tolerance, `${method} ruin ${mc.riskOfRuin.probability} vs ${ruinShare}`);
  }
});

test('a shuffle keeps the final R; the observed figures are the statistics’ own', async () => {
  const shuffled = monteCarlo(R, { method: 'shuffle', runs: 1000 });
  const total = R.reduce((a, b) => a + b, 0);
  assert.equal(shuffled.finalR.min, Math.round(total * 1e9) / 1e9);
  assert.equal(shuffled.finalR.max, shuffled.finalR.min);
  const { candles } = await readCandlesFile(join(import.meta.dirname, '../../../fixtures/official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' });
  const run = await runBacktest(candles, { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20 });
  const r = rSequence(run.trades);
  const mc = monteCarlo(r, { runs: 200 });
  assert.equal(mc.observedTrades, run.statistics.global.resolved);
  assert.equal(mc.maxDrawdownR.observed, run.statistics.global.tp1.maxDrawdownR);
  assert.equal(mc.longestLosingStreak.observed, run.statistics.global.tp1.longestLosingStreak);
  assert.equal(mc.finalR.observed, Math.round(run.statistics.global.tp1.totalR * 1e9) / 1e9);
});

test('rSequence: resolved trades in entry order at the chosen target', () => {
  const trades = [
    makeTrade({ id: 2, path: 'sl', at: '2024-01-02T10:00:00Z' }),
    makeTrade({ id: 1, path: 'tp1sl', at: '2024-01-01T10:00:00Z', rr1: 1.5 }),
    makeTrade({ id: 3, path: 'open', at: '2024-01-03T10:00:00Z' }),
    makeTrade({ id: 4, path: 'tp1open', at: '2024-01-04T10:00:00Z' }),
  ];
  assert.deepEqual([...rSequence(trades)], [1.5, -1, 1]);
  assert.deepEqual([...rSequence(trades, 'tp2')], [-1, -1]);
});

test('bad input is refused with the option named', () => {
  const bad: [MonteCarloOptions, RegExp][] = [
    [{ runs: 0 }, /^invalid runs: 0 \(expected a whole number from 1 to 1,000,000\)$/],
    [{ runs: 1.5 }, /^invalid runs: 1.5/],
    [{ method: 'jackknife' as 'shuffle' }, /^invalid method: "jackknife" \(expected bootstrap or shuffle\)$/],
    [{ seed: -1 }, /^invalid seed: -1/],
    [{ riskPerTrade: 0 }, /^invalid riskPerTrade: 0 \(expected a fraction of the equity/],
    [{ riskPerTrade: 1 }, /^invalid riskPerTrade: 1 /],
    [{ ruinLevel: 1.5 }, /^invalid ruinLevel: 1.5/],
    [{ percentiles: [0] }, /^invalid percentiles: \[0\]/],
    [{ method: 'shuffle', trades: 3 }, /^invalid trades: 3 \(a shuffle reorders the 12 observed trades/],
    [{ runs: 1_000_000, trades: 1_000_000 }, /more than 2,000,000,000 draws/],
  ];
  for (const [options, message] of bad) assert.throws(() => monteCarlo(R, options), (e: Error) => message.test(e.message), String(message));
  assert.throws(() => monteCarlo([]), { message: 'invalid R sequence: no resolved trade to draw from' });
  assert.throws(() => monteCarlo([1, NaN]), /invalid R sequence: NaN at trade 2/);
  const longer = monteCarlo(R, { trades: 50, runs: 100 });
  assert.equal(longer.tradesPerRun, 50);
});
