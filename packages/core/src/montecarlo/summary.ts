// From the runs' figures to the reported distributions (percentiles, mean, histogram) and the
// observed sequence's own figures (docs/engine.md §15). Browser-safe: no Node API.
import type { Distribution, Histogram } from './types.js';

/** Max drawdown, final R and longest losing streak of one sequence, as the runs measure them. */
export function sequenceFigures(r: ArrayLike<number>): { maxDrawdownR: number; finalR: number; longestLosingStreak: number } {
  let cum = 0;
  let peak = 0;
  let dd = 0;
  let streak = 0;
  let longest = 0;
  for (let k = 0; k < r.length; k++) {
    cum += r[k];
    if (cum > peak) peak = cum;
    else if (peak - cum > dd) dd = peak - cum;
    if (r[k] < 0) longest = Math.max(longest, ++streak);
    else streak = 0;
  }
  return { maxDrawdownR: dd, finalR: cum, longestLosingStreak: longest };
}

/** Nearest rank over sorted values: the smallest value with at least p % of them at or below it. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n - 1e-9) - 1))];
}

const round9 = (x: number) => Math.round(x * 1e9) / 1e9;

function histogram(sorted: Float64Array, bins: number, integers: boolean): Histogram {
  const n = sorted.length;
  const lo = sorted[0];
  const hi = sorted[n - 1];
  if (integers && hi - lo + 1 <= 60) {
    // One bin per value: a streak of 7 is its own bar.
    const edges = Array.from({ length: hi - lo + 2 }, (_, i) => lo + i);
    const counts = new Array<number>(hi - lo + 1).fill(0);
    for (let i = 0; i < n; i++) counts[sorted[i] - lo]++;
    return { edges, counts };
  }
  if (hi === lo) return { edges: [round9(lo), round9(lo)], counts: [n] };
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => round9(i === bins ? hi : lo + i * width));
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < n; i++) counts[Math.min(bins - 1, Math.floor((sorted[i] - lo) / width))]++;
  return { edges, counts };
}

export function distribution(values: Float64Array, observed: number, percentiles: readonly number[], bins: number, integers: boolean): Distribution {
  values.sort();
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return {
    percentiles: percentiles.map((p) => ({ p, value: round9(nearestRank(values, p)) })),
    mean: round9(sum / values.length),
    min: round9(values[0]),
    max: round9(values[values.length - 1]),
    observed: round9(observed),
    histogram: histogram(values, bins, integers),
  };
}
