// A bootstrap's runs split in contiguous ranges, computed apart (worker threads, web workers) and
// merged into the very result monteCarlo gives (docs/engine.md §15, "Threads"). Run q's generator
// starts at its own place in the one seeded stream, so its figures do not depend on the range that
// computed it; the merge puts them back in run order and summarises them as monteCarlo does.
// Browser-safe: no Node API.
import { bootstrapFigures, prepare, summarize } from './simulate.js';
import type { MonteCarloMethod, MonteCarloOptions, MonteCarloResult } from './types.js';

/** Runs [from, to) of a bootstrap and their figures (run q at q - from). Structured-clone safe. */
export interface MonteCarloRuns {
  readonly from: number;
  readonly to: number;
  readonly drawdown: Float64Array;
  readonly final: Float64Array;
  readonly streak: Float64Array;
  /** 1 for a run whose equity fell to the ruin level. */
  readonly ruin: Uint8Array;
}

/** The buffers behind a range's figures: what a worker moves to its caller instead of copying them. */
export function runsBuffers(runs: MonteCarloRuns): ArrayBuffer[] {
  return [runs.drawdown.buffer, runs.final.buffer, runs.streak.buffer, runs.ruin.buffer] as ArrayBuffer[];
}

export interface RunRange {
  readonly from: number;
  readonly to: number;
}

/**
 * `runs` split in at most `parts` contiguous ranges of about the same size, each starting at a
 * multiple of 4 (the kernel simulates four runs at a time: no run is simulated twice); fewer
 * ranges when there are fewer than `parts` groups of four runs.
 */
export function splitRuns(runs: number, parts: number): RunRange[] {
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`invalid runs: ${String(runs)} (expected a whole number of at least 1)`);
  if (!Number.isInteger(parts) || parts < 1) throw new Error(`invalid parts: ${String(parts)} (expected a whole number of at least 1)`);
  const quads = Math.ceil(runs / 4);
  const count = Math.min(parts, quads);
  const ranges: RunRange[] = [];
  for (let i = 0, from = 0; i < count; i++) {
    const to = Math.min(runs, 4 * Math.round(((i + 1) * quads) / count));
    ranges.push({ from, to });
    from = to;
  }
  return ranges;
}

/**
 * What a Monte Carlo will draw, with monteCarlo's checks of `r` and `options` (it throws as
 * monteCarlo would): lets a caller choose its threads, and refuse a bad request before starting any.
 */
export function monteCarloSize(r: ArrayLike<number>, options: MonteCarloOptions): { readonly method: MonteCarloMethod; readonly runs: number; readonly tradesPerRun: number } {
  const { o } = prepare(r, options);
  return { method: o.method, runs: o.runs, tradesPerRun: o.trades };
}

function bootstrapOnly(options: MonteCarloOptions): void {
  if ((options.method ?? 'bootstrap') !== 'bootstrap') throw new Error('invalid method: a shuffle’s runs are sequential (each starts from the previous run’s order) and cannot be split');
}

/** Bootstrap runs [from, to) of `monteCarlo(r, options)`, with the same checks of `r` and `options`. */
export function monteCarloRuns(r: ArrayLike<number>, options: MonteCarloOptions, from: number, to: number): MonteCarloRuns {
  bootstrapOnly(options);
  const p = prepare(r, options);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from || to > p.o.runs) {
    throw new Error(`invalid range of runs: [${String(from)}, ${String(to)}) (expected 0 <= from < to <= ${p.o.runs})`);
  }
  const out = bootstrapFigures(p, from, to);
  const count = to - from;
  return { from, to, drawdown: out.drawdown.subarray(0, count), final: out.final.subarray(0, count), streak: out.streak.subarray(0, count), ruin: out.ruin.subarray(0, count) };
}

/**
 * `monteCarlo(r, options)` from ranges of its runs computed by monteCarloRuns with the same `r`
 * and `options`: the ranges, in any order, must cover 0..runs once, each with its own figures.
 */
export function mergeMonteCarlo(r: ArrayLike<number>, options: MonteCarloOptions, parts: readonly MonteCarloRuns[]): MonteCarloResult {
  bootstrapOnly(options);
  const p = prepare(r, options);
  const runs = p.o.runs;
  const out = { drawdown: new Float64Array(runs), final: new Float64Array(runs), streak: new Float64Array(runs), ruin: new Uint8Array(runs) };
  let next = 0;
  for (const part of [...parts].sort((a, b) => a.from - b.from)) {
    const count = part.to - part.from;
    const fits = (a: unknown, type: typeof Float64Array | typeof Uint8Array) => a instanceof type && a.length === count;
    if (part.from !== next || !(count > 0) || part.to > runs) throw new Error(`invalid ranges of runs: [${part.from}, ${part.to}) where run ${next} of ${runs} was expected next`);
    if (!fits(part.drawdown, Float64Array) || !fits(part.final, Float64Array) || !fits(part.streak, Float64Array) || !fits(part.ruin, Uint8Array)) {
      throw new Error(`invalid ranges of runs: [${part.from}, ${part.to}) does not hold ${count} runs’ figures`);
    }
    out.drawdown.set(part.drawdown, part.from);
    out.final.set(part.final, part.from);
    out.streak.set(part.streak, part.from);
    out.ruin.set(part.ruin, part.from);
    next = part.to;
  }
  if (next !== runs) throw new Error(`invalid ranges of runs: they end at run ${next} of ${runs}`);
  return summarize(p, out);
}
