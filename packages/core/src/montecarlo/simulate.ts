// Monte Carlo on a run's R sequence: bootstrap or shuffle, seeded, in plain typed-array loops of
// a few nanoseconds per draw (docs/engine.md §15, docs/PERFORMANCE.md).
// Browser-safe: no Node API.
import type { Trade } from '../simulate/types.js';
import { MONTE_CARLO_DEFAULTS, MONTE_CARLO_LIMITS, type Distribution, type Histogram, type MonteCarloOptions, type MonteCarloResult } from './types.js';

function checkOptions(options: MonteCarloOptions, observed: number) {
  const method = options.method ?? 'bootstrap';
  if (method !== 'bootstrap' && method !== 'shuffle') throw new Error(`invalid method: ${JSON.stringify(method)} (expected bootstrap or shuffle)`);
  const int = (name: string, v: number | undefined, fallback: number, min: number, max: number) => {
    if (v === undefined) return fallback;
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`invalid ${name}: ${String(v)} (expected a whole number from ${min} to ${max.toLocaleString('en-US')})`);
    return v;
  };
  const runs = int('runs', options.runs, MONTE_CARLO_DEFAULTS.runs, 1, MONTE_CARLO_LIMITS.runs);
  const seed = int('seed', options.seed, MONTE_CARLO_DEFAULTS.seed, 0, 0xffffffff);
  if (method === 'shuffle' && options.trades !== undefined && options.trades !== observed) throw new Error(`invalid trades: ${options.trades} (a shuffle reorders the ${observed} observed trades; only a bootstrap draws another count)`);
  const trades = int('trades', options.trades, observed, 1, MONTE_CARLO_LIMITS.trades);
  if (runs * trades > MONTE_CARLO_LIMITS.steps) throw new Error(`invalid runs: ${runs} runs of ${trades} trades are more than ${MONTE_CARLO_LIMITS.steps.toLocaleString('en-US')} draws`);
  const risk = options.riskPerTrade ?? MONTE_CARLO_DEFAULTS.riskPerTrade;
  if (typeof risk !== 'number' || !(risk > 0 && risk < 1)) throw new Error(`invalid riskPerTrade: ${String(risk)} (expected a fraction of the equity, > 0 and < 1, e.g. 0.01 for 1 %)`);
  const ruin = options.ruinLevel ?? MONTE_CARLO_DEFAULTS.ruinLevel;
  if (typeof ruin !== 'number' || !(ruin > 0 && ruin <= 1)) throw new Error(`invalid ruinLevel: ${String(ruin)} (expected a fraction of the starting equity, > 0 and at most 1, e.g. 0.5)`);
  const percentiles = options.percentiles ?? MONTE_CARLO_DEFAULTS.percentiles;
  if (!Array.isArray(percentiles) || percentiles.length === 0 || percentiles.some((p) => typeof p !== 'number' || !(p > 0 && p <= 100))) {
    throw new Error(`invalid percentiles: ${JSON.stringify(percentiles)} (expected numbers in (0, 100], e.g. [5, 50, 95])`);
  }
  const bins = int('bins', options.bins, MONTE_CARLO_DEFAULTS.bins, 1, MONTE_CARLO_LIMITS.bins);
  return { method, runs, seed, trades, risk, ruin, percentiles, bins };
}

/** Per-run figures of one simulation: typed arrays filled by the kernels below. */
interface RunFigures {
  readonly drawdown: Float64Array;
  readonly final: Float64Array;
  readonly streak: Float64Array;
  /** 1 for a run whose equity fell to the ruin level. */
  readonly ruin: Uint8Array;
}

/**
 * Shuffle runs [from, to): each walks a Fisher-Yates permutation of the observed trades, drawn in
 * the same pass (position k takes a random one of k..n-1), starting from the previous run's order.
 * `growth[i]` is log(1 + risk × r[i]) (-Infinity when the trade alone ruins), `ruinAt`
 * log(1 - ruinLevel).
 */
function shuffleRange(r: Float64Array, growth: Float64Array, ruinAt: number, order: Int32Array, state: Int32Array, out: RunFigures, from: number, to: number): void {
  const n = r.length | 0;
  let a = state[0];
  for (let run = from; run < to; run++) {
    let cum = 0;
    let peak = 0;
    let dd = 0;
    let streak = 0;
    let longest = 0;
    let equity = 0;
    let ruin = 0;
    for (let k = 0; k < n; k++) {
      // core's seededRandom (mulberry32), inlined: a call per draw would box every double it returns.
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      const j = k + ((u * (n - k)) | 0);
      const i = order[j];
      order[j] = order[k];
      order[k] = i;
      const x = r[i];
      // Branch-free: with random draws every branch here would be mispredicted half the time.
      cum += x;
      peak = Math.max(peak, cum);
      dd = Math.max(dd, peak - cum);
      streak = (streak + 1) * +(x < 0);
      longest = Math.max(longest, streak);
      equity += growth[i];
      ruin |= +(equity <= ruinAt);
    }
    out.drawdown[run] = dd;
    out.final[run] = cum;
    out.streak[run] = longest;
    out.ruin[run] = ruin;
  }
  state[0] = a;
}

/** mulberry32's state after `draws` steps from `seed` (its state only ever adds the same constant). */
function stateAfter(seed: number, draws: number): number {
  return (seed + Math.imul(draws, 0x6d2b79f5)) | 0;
}

/**
 * Bootstrap runs [from, to) (`to - from` even), two at a time: run q draws `length` trades with
 * replacement, its generator started where run q-1's ended (stateAfter), so the draws are those of
 * one stream of core's seededRandom, run after run. Two independent runs in one loop keep the
 * processor's pipelines full (each run alone is one long chain of dependent additions).
 */
function bootstrapPairs(r: Float64Array, growth: Float64Array, ruinAt: number, length: number, seed: number, out: RunFigures, from: number, to: number): void {
  const n = r.length | 0;
  for (let run = from; run < to; run += 2) {
    let a = stateAfter(seed, run * length);
    let b = stateAfter(seed, (run + 1) * length);
    let cumA = 0, peakA = 0, ddA = 0, streakA = 0, longestA = 0, equityA = 0, ruinA = 0;
    let cumB = 0, peakB = 0, ddB = 0, streakB = 0, longestB = 0, equityB = 0, ruinB = 0;
    for (let k = 0; k < length; k++) {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const i = ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
      b = (b + 0x6d2b79f5) | 0;
      let v = Math.imul(b ^ (b >>> 15), b | 1);
      v ^= v + Math.imul(v ^ (v >>> 7), v | 61);
      const h = ((((v ^ (v >>> 14)) >>> 0) / 4294967296) * n) | 0;
      const x = r[i];
      const y = r[h];
      cumA += x;
      cumB += y;
      peakA = Math.max(peakA, cumA);
      peakB = Math.max(peakB, cumB);
      ddA = Math.max(ddA, peakA - cumA);
      ddB = Math.max(ddB, peakB - cumB);
      streakA = (streakA + 1) * +(x < 0);
      streakB = (streakB + 1) * +(y < 0);
      longestA = Math.max(longestA, streakA);
      longestB = Math.max(longestB, streakB);
      equityA += growth[i];
      equityB += growth[h];
      ruinA |= +(equityA <= ruinAt);
      ruinB |= +(equityB <= ruinAt);
    }
    out.drawdown[run] = ddA;
    out.final[run] = cumA;
    out.streak[run] = longestA;
    out.drawdown[run + 1] = ddB;
    out.final[run + 1] = cumB;
    out.streak[run + 1] = longestB;
    out.ruin[run] = ruinA;
    out.ruin[run + 1] = ruinB;
  }
}

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

function distribution(values: Float64Array, observed: number, percentiles: readonly number[], bins: number, integers: boolean): Distribution {
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

/**
 * Monte Carlo on an R sequence (docs/engine.md §15): `runs` sequences drawn with replacement
 * (bootstrap) or reordered (shuffle) from `r`, with core's seededRandom; the distributions of
 * max drawdown, final R and longest losing streak, and the risk of ruin at a risk per trade.
 */
export function monteCarlo(r: ArrayLike<number>, options: MonteCarloOptions = {}): MonteCarloResult {
  const n = r.length;
  if (n === 0) throw new Error('invalid R sequence: no resolved trade to draw from');
  const values = Float64Array.from(r);
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i])) throw new Error(`invalid R sequence: ${values[i]} at trade ${i + 1} (expected finite R multiples)`);
  const o = checkOptions(options, n);
  const growth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const g = 1 + o.risk * values[i];
    growth[i] = g > 0 ? Math.log(g) : -Infinity;
  }
  const ruinAt = o.ruin >= 1 ? -Infinity : Math.log(1 - o.ruin);
  const padded = o.runs + (o.runs & 1);
  const out: RunFigures = { drawdown: new Float64Array(padded), final: new Float64Array(padded), streak: new Float64Array(padded), ruin: new Uint8Array(padded) };
  // Chunks of runs: each kernel call is short enough to be optimised as a whole (docs/engine.md §11).
  const chunk = 2 * Math.max(1, Math.floor(131_072 / o.trades));
  if (o.method === 'shuffle') {
    // The generator's state: core's seededRandom (mulberry32) stepped inline by the kernel.
    const state = Int32Array.of(o.seed | 0);
    const order = Int32Array.from({ length: n }, (_, i) => i);
    for (let k = 0; k < o.runs; k += chunk) shuffleRange(values, growth, ruinAt, order, state, out, k, Math.min(o.runs, k + chunk));
  } else {
    // An odd count runs one more, unreported: the runs' figures are kept for the first `runs`.
    for (let k = 0; k < padded; k += chunk) bootstrapPairs(values, growth, ruinAt, o.trades, o.seed | 0, out, k, Math.min(padded, k + chunk));
  }
  let ruined = 0;
  for (let k = 0; k < o.runs; k++) ruined += out.ruin[k];
  const seen = sequenceFigures(values);
  return {
    method: o.method,
    runs: o.runs,
    seed: o.seed,
    observedTrades: n,
    tradesPerRun: o.trades,
    maxDrawdownR: distribution(out.drawdown.subarray(0, o.runs), seen.maxDrawdownR, o.percentiles, o.bins, false),
    finalR: distribution(out.final.subarray(0, o.runs), seen.finalR, o.percentiles, o.bins, false),
    longestLosingStreak: distribution(out.streak.subarray(0, o.runs), seen.longestLosingStreak, o.percentiles, o.bins, true),
    riskOfRuin: { riskPerTrade: o.risk, ruinLevel: o.ruin, probability: ruined / o.runs, ruinedRuns: ruined },
  };
}

/** The R sequence of a run's trades at one target: resolved trades in entry order (open ones have no R). */
export function rSequence(trades: readonly Trade[], target: 'tp1' | 'tp2' = 'tp1'): Float64Array {
  const ordered = [...trades].sort((a, b) => a.entryTime - b.entryTime || a.id - b.id);
  const out: number[] = [];
  for (const t of ordered) {
    const result = target === 'tp1' ? t.tp1Result : t.tp2Result;
    if (result !== 'open') out.push(target === 'tp1' ? t.rTp1 : t.rTp2);
  }
  return Float64Array.from(out);
}
