// Monte Carlo on a run's R sequence: bootstrap or shuffle, seeded, in plain typed-array loops of
// a few nanoseconds per draw: about 5.5 ns of CPU per bootstrap draw (four runs per loop) and
// 8 ns per shuffle draw, where Math.max on doubles and a division per draw took 10 and 12.5 ns,
// with the same draws and results to the bit (docs/engine.md §15 "Kernels", docs/PERFORMANCE.md).
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
 * What the kernels read per drawn trade: `r[i]`; `growth[i]`, log(1 + risk × r[i]) (-Infinity when
 * the trade alone ruins); `losing[i]`, -1 when r[i] < 0 and 0 otherwise (a mask: the losing streak
 * stays in Int32, `(streak + 1) & losing[i]`).
 */
interface Trades {
  readonly r: Float64Array;
  readonly growth: Float64Array;
  readonly losing: Int32Array;
}

// 2^-32: a 32-bit draw u gives u × 2^-32 in [0, 1), the very double seededRandom returns
// (u / 2^32; scaling by a power of two is exact). For an integer m < 2^53, m × 2^-32 is exact too,
// so u × (m × 2^-32) rounds u × m once and scales it exactly: the same double as (u / 2^32) × m,
// and the same index after `| 0`, for every m. One multiply per draw instead of a division and
// a multiply.
const TWO_POW_MINUS_32 = 1 / 4294967296;

/*
 * Peak and drawdown without Math.max. V8 compiles Math.max on doubles to compare-and-branch code
 * (for NaN and -0), and on random draws those branches are mispredicted so often that they took
 * half of the time (a ternary is a branch too). The kernels select through a small Float64Array
 * instead, indexed by the comparison (0 or 1): no branch. Two facts make it exactly Math.max:
 * - the values are never NaN nor -0 while the cumulative R is finite (it starts at +0 and adds
 *   finite R, x - x is +0; the peak starts at +0 and only takes a higher cumulative R); an
 *   overflow to +Infinity is handled after the kernels (monteCarlo);
 * - the drop is measured from the previous peak: when the cumulative R makes a new peak the drop
 *   is negative and the drawdown (>= 0) stays, as with the new peak's drop of 0; otherwise the
 *   previous peak is the peak. The drawdown's chain then does not wait for the peak's selection.
 * The losing streak is an Int32 (the `losing` mask) and its longest an Int32 Math.max.
 */

/**
 * Shuffle runs [from, to): each walks a Fisher-Yates permutation of the observed trades, drawn in
 * the same pass (position k takes a random one of k..n-1), starting from the previous run's order,
 * so the runs stay sequential. `ruinAt` is log(1 - ruinLevel).
 */
function shuffleRange(t: Trades, ruinAt: number, order: Int32Array, state: Int32Array, out: RunFigures, from: number, to: number): void {
  const { r, growth, losing } = t;
  const n = r.length | 0;
  // [peak, cumulative R, drawdown, drop]: the selections' operands.
  const pick = new Float64Array(4);
  let a = state[0];
  for (let run = from; run < to; run++) {
    let cum = 0;
    let peak = 0;
    let dd = 0;
    let streak = 0;
    let longest = 0;
    let equity = 0;
    let ruin = 0;
    // (n - k) × 2^-32, exactly: the scale of position k's draw over the n - k remaining trades.
    let span = n * TWO_POW_MINUS_32;
    for (let k = 0; k < n; k++) {
      // core's seededRandom (mulberry32), inlined: a call per draw would box every double it returns.
      a = (a + 0x6d2b79f5) | 0;
      let m = Math.imul(a ^ (a >>> 15), a | 1);
      m ^= m + Math.imul(m ^ (m >>> 7), m | 61);
      const j = k + ((((m ^ (m >>> 14)) >>> 0) * span) | 0);
      span -= TWO_POW_MINUS_32;
      const i = order[j];
      order[j] = order[k];
      order[k] = i;
      cum += r[i];
      // The drop from the previous peak (see bootstrapQuads): the drawdown's chain does not wait
      // for the peak's selection.
      const drop = peak - cum;
      pick[0] = peak;
      pick[1] = cum;
      peak = pick[+(cum > peak)];
      pick[2] = dd;
      pick[3] = drop;
      dd = pick[2 + +(drop > dd)];
      streak = (streak + 1) & losing[i];
      longest = Math.max(longest, streak) | 0;
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
 * Bootstrap runs [from, to) (`to - from` a multiple of 4), four at a time: run q draws `length`
 * trades with replacement, its generator started where run q-1's ended (stateAfter), so the
 * draws are those of one stream of core's seededRandom, run after run. Four independent runs in
 * one loop keep the processor's pipelines full (each run alone is one long chain of dependent
 * additions).
 *
 * Peak and drawdown stay in `pick` (4 slots per run: peak, a discard slot, drawdown, a discard
 * slot), updated by one store whose index is the comparison: the cumulative R goes to the peak's
 * slot when it is higher, to the discard slot otherwise; likewise the drop. Fewer stores than the
 * shuffle's selection, but the next draw's load waits for that store: with four runs in flight it
 * is the faster form (about 4 %), with two or one it is the slower.
 */
function bootstrapQuads(t: Trades, ruinAt: number, length: number, seed: number, out: RunFigures, from: number, to: number): void {
  const { r, growth, losing } = t;
  const scale = (r.length | 0) * TWO_POW_MINUS_32;
  const pick = new Float64Array(16);
  for (let run = from; run < to; run += 4) {
    let sa = stateAfter(seed, run * length);
    let sb = stateAfter(seed, (run + 1) * length);
    let sc = stateAfter(seed, (run + 2) * length);
    let sd = stateAfter(seed, (run + 3) * length);
    let cumA = 0, streakA = 0, longestA = 0, equityA = 0, ruinA = 0;
    let cumB = 0, streakB = 0, longestB = 0, equityB = 0, ruinB = 0;
    let cumC = 0, streakC = 0, longestC = 0, equityC = 0, ruinC = 0;
    let cumD = 0, streakD = 0, longestD = 0, equityD = 0, ruinD = 0;
    pick.fill(0);
    for (let k = 0; k < length; k++) {
      sa = (sa + 0x6d2b79f5) | 0;
      let ma = Math.imul(sa ^ (sa >>> 15), sa | 1);
      ma ^= ma + Math.imul(ma ^ (ma >>> 7), ma | 61);
      const ia = (((ma ^ (ma >>> 14)) >>> 0) * scale) | 0;
      sb = (sb + 0x6d2b79f5) | 0;
      let mb = Math.imul(sb ^ (sb >>> 15), sb | 1);
      mb ^= mb + Math.imul(mb ^ (mb >>> 7), mb | 61);
      const ib = (((mb ^ (mb >>> 14)) >>> 0) * scale) | 0;
      sc = (sc + 0x6d2b79f5) | 0;
      let mc = Math.imul(sc ^ (sc >>> 15), sc | 1);
      mc ^= mc + Math.imul(mc ^ (mc >>> 7), mc | 61);
      const ic = (((mc ^ (mc >>> 14)) >>> 0) * scale) | 0;
      sd = (sd + 0x6d2b79f5) | 0;
      let md = Math.imul(sd ^ (sd >>> 15), sd | 1);
      md ^= md + Math.imul(md ^ (md >>> 7), md | 61);
      const id = (((md ^ (md >>> 14)) >>> 0) * scale) | 0;
      cumA += r[ia];
      cumB += r[ib];
      cumC += r[ic];
      cumD += r[id];
      const peakA = pick[0], peakB = pick[4], peakC = pick[8], peakD = pick[12];
      const dropA = peakA - cumA, dropB = peakB - cumB, dropC = peakC - cumC, dropD = peakD - cumD;
      pick[1 - +(cumA > peakA)] = cumA;
      pick[5 - +(cumB > peakB)] = cumB;
      pick[9 - +(cumC > peakC)] = cumC;
      pick[13 - +(cumD > peakD)] = cumD;
      pick[3 - +(dropA > pick[2])] = dropA;
      pick[7 - +(dropB > pick[6])] = dropB;
      pick[11 - +(dropC > pick[10])] = dropC;
      pick[15 - +(dropD > pick[14])] = dropD;
      streakA = (streakA + 1) & losing[ia];
      streakB = (streakB + 1) & losing[ib];
      streakC = (streakC + 1) & losing[ic];
      streakD = (streakD + 1) & losing[id];
      longestA = Math.max(longestA, streakA) | 0;
      longestB = Math.max(longestB, streakB) | 0;
      longestC = Math.max(longestC, streakC) | 0;
      longestD = Math.max(longestD, streakD) | 0;
      equityA += growth[ia];
      equityB += growth[ib];
      equityC += growth[ic];
      equityD += growth[id];
      ruinA |= +(equityA <= ruinAt);
      ruinB |= +(equityB <= ruinAt);
      ruinC |= +(equityC <= ruinAt);
      ruinD |= +(equityD <= ruinAt);
    }
    out.drawdown[run] = pick[2];
    out.final[run] = cumA;
    out.streak[run] = longestA;
    out.ruin[run] = ruinA;
    out.drawdown[run + 1] = pick[6];
    out.final[run + 1] = cumB;
    out.streak[run + 1] = longestB;
    out.ruin[run + 1] = ruinB;
    out.drawdown[run + 2] = pick[10];
    out.final[run + 2] = cumC;
    out.streak[run + 2] = longestC;
    out.ruin[run + 2] = ruinC;
    out.drawdown[run + 3] = pick[14];
    out.final[run + 3] = cumD;
    out.streak[run + 3] = longestD;
    out.ruin[run + 3] = ruinD;
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
  const losing = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g = 1 + o.risk * values[i];
    growth[i] = g > 0 ? Math.log(g) : -Infinity;
    losing[i] = values[i] < 0 ? -1 : 0;
  }
  const trades: Trades = { r: values, growth, losing };
  const ruinAt = o.ruin >= 1 ? -Infinity : Math.log(1 - o.ruin);
  // The bootstrap simulates runs four at a time: a count that is not a multiple of 4 simulates up
  // to 3 more, unreported (the runs' figures are kept for the first `runs`).
  const padded = (o.runs + 3) & ~3;
  const out: RunFigures = { drawdown: new Float64Array(padded), final: new Float64Array(padded), streak: new Float64Array(padded), ruin: new Uint8Array(padded) };
  // Chunks of runs (a multiple of 4, about 2^18 draws): each kernel call is short enough to be
  // optimised as a whole (docs/engine.md §11).
  const chunk = 4 * Math.max(1, Math.floor(65_536 / o.trades));
  if (o.method === 'shuffle') {
    // The generator's state: core's seededRandom (mulberry32) stepped inline by the kernel.
    const state = Int32Array.of(o.seed | 0);
    const order = Int32Array.from({ length: n }, (_, i) => i);
    for (let k = 0; k < o.runs; k += chunk) shuffleRange(trades, ruinAt, order, state, out, k, Math.min(o.runs, k + chunk));
  } else {
    for (let k = 0; k < padded; k += chunk) bootstrapQuads(trades, ruinAt, o.trades, o.seed | 0, out, k, Math.min(padded, k + chunk));
  }
  for (let k = 0; k < o.runs; k++) {
    // A cumulative R that overflowed to +Infinity: Math.max's drawdown is Infinity - Infinity,
    // NaN, from that draw on, which the selections in the kernels do not propagate. (The
    // cumulative R only ever adds finite R, so it stays infinite once it is; -Infinity gives an
    // infinite drawdown either way.)
    if (out.final[k] === Infinity) out.drawdown[k] = NaN;
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
