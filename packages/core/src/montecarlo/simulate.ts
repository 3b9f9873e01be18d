// Monte Carlo on a run's R sequence: bootstrap or shuffle, seeded (docs/engine.md §15). The
// kernels are in kernels.ts; bootstrap runs split in ranges (for threads) in ranges.ts, merged
// through the same summary as here. Browser-safe: no Node API.
import type { Trade } from '../simulate/types.js';
import { bootstrapQuads, shuffleRange, type RunFigures, type Trades } from './kernels.js';
import { checkOptions, type CheckedOptions } from './options.js';
import { distribution, sequenceFigures } from './summary.js';
import type { MonteCarloOptions, MonteCarloResult } from './types.js';

/** A checked request: the options with their defaults, and the per-trade tables the kernels read. */
export interface Prepared {
  readonly o: CheckedOptions;
  readonly trades: Trades;
  /** log(1 - ruinLevel): the ruin threshold of the log equity. */
  readonly ruinAt: number;
}

export function prepare(r: ArrayLike<number>, options: MonteCarloOptions): Prepared {
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
  return { o, trades: { r: values, growth, losing }, ruinAt: o.ruin >= 1 ? -Infinity : Math.log(1 - o.ruin) };
}

const figures = (length: number): RunFigures => ({ drawdown: new Float64Array(length), final: new Float64Array(length), streak: new Float64Array(length), ruin: new Uint8Array(length) });

// Chunks of runs (a multiple of 4, about 2^18 draws): each kernel call is short enough to be
// optimised as a whole (docs/engine.md §11).
const chunkOf = (o: CheckedOptions) => 4 * Math.max(1, Math.floor(65_536 / o.trades));

/**
 * A cumulative R that overflowed to +Infinity: Math.max's drawdown is Infinity - Infinity, NaN,
 * from that draw on, which the selections in the kernels do not propagate. (The cumulative R only
 * ever adds finite R, so it stays infinite once it is; -Infinity gives an infinite drawdown either
 * way.)
 */
function overflowed(out: RunFigures, count: number): void {
  for (let k = 0; k < count; k++) if (out.final[k] === Infinity) out.drawdown[k] = NaN;
}

/**
 * Bootstrap runs [from, to), any range of 0..runs: the figures of run q at q - from. The kernel
 * simulates four runs at a time, so a count that is not a multiple of 4 simulates up to 3 more,
 * unreported (their slots are past `to - from`). Each run's generator starts at its own place in
 * the one seeded stream, so the figures do not depend on the range they were computed in.
 */
export function bootstrapFigures(p: Prepared, from: number, to: number): RunFigures {
  const padded = from + ((to - from + 3) & ~3);
  const out = figures(padded - from);
  const chunk = chunkOf(p.o);
  for (let k = from; k < padded; k += chunk) bootstrapQuads(p.trades, p.ruinAt, p.o.trades, p.o.seed | 0, out, from, k, Math.min(padded, k + chunk));
  overflowed(out, to - from);
  return out;
}

/** Shuffle runs, all of them: each starts from the previous run's order, so they are sequential. */
function shuffleFigures(p: Prepared): RunFigures {
  const out = figures(p.o.runs);
  // The generator's state: core's seededRandom (mulberry32) stepped inline by the kernel.
  const state = Int32Array.of(p.o.seed | 0);
  const order = Int32Array.from({ length: p.trades.r.length }, (_, i) => i);
  const chunk = chunkOf(p.o);
  for (let k = 0; k < p.o.runs; k += chunk) shuffleRange(p.trades, p.ruinAt, order, state, out, k, Math.min(p.o.runs, k + chunk));
  overflowed(out, p.o.runs);
  return out;
}

/** The result from every run's figures (runs 0..runs-1 at the arrays' start; sorted in place). */
export function summarize(p: Prepared, out: RunFigures): MonteCarloResult {
  const { o } = p;
  let ruined = 0;
  for (let k = 0; k < o.runs; k++) ruined += out.ruin[k];
  const seen = sequenceFigures(p.trades.r);
  return {
    method: o.method,
    runs: o.runs,
    seed: o.seed,
    observedTrades: p.trades.r.length,
    tradesPerRun: o.trades,
    maxDrawdownR: distribution(out.drawdown.subarray(0, o.runs), seen.maxDrawdownR, o.percentiles, o.bins, false),
    finalR: distribution(out.final.subarray(0, o.runs), seen.finalR, o.percentiles, o.bins, false),
    longestLosingStreak: distribution(out.streak.subarray(0, o.runs), seen.longestLosingStreak, o.percentiles, o.bins, true),
    riskOfRuin: { riskPerTrade: o.risk, ruinLevel: o.ruin, probability: ruined / o.runs, ruinedRuns: ruined },
  };
}

/**
 * Monte Carlo on an R sequence (docs/engine.md §15): `runs` sequences drawn with replacement
 * (bootstrap) or reordered (shuffle) from `r`, with core's seededRandom; the distributions of
 * max drawdown, final R and longest losing streak, and the risk of ruin at a risk per trade.
 * On one thread; ranges.ts splits a bootstrap's runs for several, with the same result.
 */
export function monteCarlo(r: ArrayLike<number>, options: MonteCarloOptions = {}): MonteCarloResult {
  const p = prepare(r, options);
  return summarize(p, p.o.method === 'shuffle' ? shuffleFigures(p) : bootstrapFigures(p, 0, p.o.runs));
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
