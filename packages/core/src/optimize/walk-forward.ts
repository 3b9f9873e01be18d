// Walk-forward (docs/engine.md §14): parameters chosen on each in-sample window by optimize()'s
// ranking, then judged only on the out-of-sample window that follows it. The in-sample runs end
// at their window's last candle (runBacktest's `to`: later candles are not used at all), so no
// out-of-sample candle can take part in the choice.
import type { Candles } from '../candles/types.js';
import { computeStatistics } from '../stats/compute.js';
import type { BacktestStatistics, TargetFigures } from '../stats/types.js';
import type { Trade } from '../simulate/types.js';
import { CombinationEvaluator, type Evaluation, type OptimizationBase } from './evaluator.js';
import { rankEvaluations, rankingOptions, targetFigures, type RankedEvaluation, type RankingOptions } from './optimize.js';
import { ParameterSpace, type Search, type SearchSpace } from './space.js';

export interface FoldSpec {
  /** rolling: every in-sample window has the same length; anchored: they all start at the first candle. */
  readonly mode: 'rolling' | 'anchored';
  readonly inSampleMs: number;
  readonly outOfSampleMs: number;
  /** From one out-of-sample window to the next; default outOfSampleMs (windows side by side). */
  readonly stepMs?: number;
}

export interface Fold {
  readonly index: number;
  /** ms UTC, both ends inclusive. */
  readonly inSample: { readonly from: number; readonly to: number };
  readonly outOfSample: { readonly from: number; readonly to: number };
}

export interface WalkForwardOptions extends OptimizationBase, RankingOptions {
  readonly folds: FoldSpec;
  readonly space: SearchSpace;
  readonly search?: Search;
  /** The whole period walked (ms UTC, inclusive); default: the candles'. */
  readonly from?: number;
  readonly to?: number;
  readonly onFold?: (fold: FoldResult) => void;
}

export interface FoldResult extends Fold {
  /** The in-sample winner; null when no combination had enough trades there (the fold is not traded). */
  readonly chosen: RankedEvaluation | null;
  readonly evaluated: number;
  readonly eligible: number;
  /** The chosen combination's figures out of sample (at the target), and its trades there. */
  readonly outOfSampleFigures: TargetFigures | null;
  readonly outOfSampleTrades: readonly Trade[];
}

export interface WalkForwardResult {
  readonly mode: 'rolling' | 'anchored';
  readonly objective: string;
  readonly target: 'tp1' | 'tp2';
  readonly minTrades: number;
  readonly folds: readonly FoldResult[];
  /** Every out-of-sample trade of every traded fold, in entry order, numbered 1..n. */
  readonly outOfSampleTrades: readonly Trade[];
  readonly outOfSample: BacktestStatistics;
  /** How much performance survives out of sample (docs/engine.md §14). */
  readonly survival: Survival;
}

export interface Survival {
  readonly tradedFolds: number;
  /** In sample: the chosen combinations' figures, pooled over the traded folds (resolved-weighted). */
  readonly inSample: { readonly resolved: number; readonly winrate: number | null; readonly expectancyR: number | null };
  readonly outOfSample: { readonly resolved: number; readonly winrate: number | null; readonly expectancyR: number | null };
  /** Out-of-sample expectancy over in-sample expectancy (walk-forward efficiency); null unless the in-sample one is > 0. */
  readonly expectancyRatio: number | null;
  readonly winrateRatio: number | null;
  /** Folds whose out-of-sample expectancy is > 0, of the traded folds. */
  readonly profitableFolds: number;
}

/** Most folds a walk-forward makes. */
export const MAX_FOLDS = 500;

/**
 * Most in-sample evaluations (folds × combinations) of one walk-forward: 500 folds of the 200,000
 * combinations a grid may have were 100 million runs, a day of work at the 1,200 a second of
 * docs/PERFORMANCE.md, started without a word; 2 million is about half an hour.
 */
export const MAX_WALK_EVALUATIONS = 2_000_000;

/** Refuses a walk-forward of more than MAX_WALK_EVALUATIONS, before any work. */
export function checkWalkForwardSize(folds: number, combinations: number): void {
  if (folds * combinations > MAX_WALK_EVALUATIONS) {
    const n = (x: number) => x.toLocaleString('en-US');
    throw new Error(`invalid walk-forward: ${n(folds)} folds × ${n(combinations)} combinations are ${n(folds * combinations)} in-sample runs, more than ${n(MAX_WALK_EVALUATIONS)}: use fewer folds (a longer out-of-sample window or step) or a smaller space (fewer values, or a random search)`);
  }
}

const DAY = 86_400_000;

/** 90 days, 6 hours, 15 minutes: how long a window is, for messages. */
function duration(ms: number): string {
  const [unit, size] = ms >= DAY ? ['day', DAY] : ms >= 3_600_000 ? ['hour', 3_600_000] : ['minute', 60_000];
  const n = Math.round((ms / size) * 10) / 10;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The folds over candle times `time` (ms); each out-of-sample window holds at least one candle. */
export function walkForwardFolds(time: Float64Array, spec: FoldSpec, from?: number, to?: number): Fold[] {
  if (spec.mode !== 'rolling' && spec.mode !== 'anchored') throw new Error(`invalid folds.mode: ${JSON.stringify(spec.mode)} (expected rolling or anchored)`);
  const positive = (name: string, v: number | undefined) => {
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 60_000) throw new Error(`invalid folds.${name}: ${String(v)} (expected a duration of at least one minute, in ms)`);
  };
  positive('inSampleMs', spec.inSampleMs);
  positive('outOfSampleMs', spec.outOfSampleMs);
  positive('stepMs', spec.stepMs);
  // A shorter step makes out-of-sample windows overlap: a trade in two of them was pooled twice,
  // inflating the out-of-sample counts and narrowing their intervals (docs/engine.md §14).
  if (spec.stepMs !== undefined && spec.stepMs < spec.outOfSampleMs) {
    throw new Error(`invalid folds.stepMs: ${spec.stepMs} (expected at least outOfSampleMs, ${spec.outOfSampleMs}: overlapping out-of-sample windows would count their trades more than once)`);
  }
  if (time.length === 0) throw new Error('invalid candles: none to walk');
  // Without a start, folds start at the first candle's UTC midnight: windows of whole days stay whole days.
  const first = from ?? Math.floor(time[0] / DAY) * DAY;
  const last = to ?? time[time.length - 1];
  const step = spec.stepMs ?? spec.outOfSampleMs;
  if ((last - first - spec.inSampleMs) / step > 100 * MAX_FOLDS) {
    throw new Error(`invalid folds: more than ${MAX_FOLDS} (steps of ${duration(step)} over this period): use longer windows`);
  }
  const folds: Fold[] = [];
  for (let start = first + spec.inSampleMs; start <= last; start += step) {
    const oosTo = Math.min(last, start + spec.outOfSampleMs - 1);
    // A window without any candle (a weekend, a gap in the data) is no fold.
    let lo = 0;
    let hi = time.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (time[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    if (lo < time.length && time[lo] <= oosTo) {
      const isFrom = spec.mode === 'anchored' ? first : start - spec.inSampleMs;
      folds.push({ index: folds.length, inSample: { from: isFrom, to: start - 1 }, outOfSample: { from: start, to: oosTo } });
      if (folds.length > MAX_FOLDS) throw new Error(`invalid folds: more than ${MAX_FOLDS} (out-of-sample windows of ${duration(spec.outOfSampleMs)} over this period): use longer windows`);
    }
  }
  if (folds.length === 0) {
    throw new Error(`invalid folds: the data (${new Date(first).toISOString().slice(0, 10)} to ${new Date(last).toISOString().slice(0, 10)}) is not longer than one in-sample window of ${duration(spec.inSampleMs)}`);
  }
  return folds;
}

/** The in-sample choice of a fold from its evaluations. */
export function chooseOnInSample(evaluations: readonly Evaluation[], options: RankingOptions): { chosen: RankedEvaluation | null; eligible: number } {
  const ranked = rankEvaluations(evaluations, options);
  const eligible = ranked.filter((r) => r.eligible).length;
  return { chosen: eligible > 0 ? ranked[0] : null, eligible };
}

/** Pools the folds: out-of-sample statistics over every out-of-sample trade, and what survives. */
export function walkForwardSummary(folds: readonly FoldResult[], options: RankingOptions & { mode: 'rolling' | 'anchored' }): WalkForwardResult {
  const { objective, target, minTrades } = rankingOptions(options);
  const all = folds.flatMap((f) => f.outOfSampleTrades).sort((a, b) => a.entryTime - b.entryTime || a.entryIndex - b.entryIndex);
  const trades = all.map((t, i) => ({ ...t, id: i + 1 }));
  const outOfSample = computeStatistics(trades);
  const traded = folds.filter((f) => f.chosen !== null);
  const pool = (figures: (TargetFigures | null)[]) => {
    let resolved = 0;
    let wins = 0;
    let total = 0;
    for (const f of figures) {
      if (!f) continue;
      resolved += f.resolved;
      wins += f.wins;
      total += f.totalR;
    }
    return { resolved, winrate: resolved > 0 ? wins / resolved : null, expectancyR: resolved > 0 ? total / resolved : null };
  };
  const inSample = pool(traded.map((f) => (f.chosen ? targetFigures(f.chosen, target) : null)));
  const oos = pool(traded.map((f) => f.outOfSampleFigures));
  const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? Math.round((a / b) * 1e6) / 1e6 : null);
  return {
    mode: options.mode,
    objective,
    target,
    minTrades,
    folds,
    outOfSampleTrades: trades,
    outOfSample,
    survival: {
      tradedFolds: traded.length,
      inSample,
      outOfSample: oos,
      expectancyRatio: ratio(oos.expectancyR, inSample.expectancyR),
      winrateRatio: ratio(oos.winrate, inSample.winrate),
      profitableFolds: traded.filter((f) => (f.outOfSampleFigures?.expectancyR ?? 0) > 0).length,
    },
  };
}

/** The chosen combination judged on the out-of-sample window: its figures at the target and its trades. */
export function judgeOutOfSample(candles: Candles, base: OptimizationBase, fold: Fold, chosen: RankedEvaluation, target: 'tp1' | 'tp2'): { figures: TargetFigures | null; trades: Trade[] } {
  const evaluator = new CombinationEvaluator(candles, base, fold.outOfSample);
  const combination = { index: chosen.index, params: chosen.params, slPips: chosen.slPips ?? undefined, tp1Pips: chosen.tp1Pips ?? undefined, tp2Pips: chosen.tp2Pips ?? undefined };
  const evaluation = evaluator.evaluate(combination);
  return { figures: targetFigures(evaluation, target), trades: evaluator.trades(combination) };
}

/**
 * Walk-forward in one thread: per fold, every combination of the space on the in-sample window,
 * the best eligible one (optimize()'s ranking) judged on the out-of-sample window.
 */
export function walkForward(candles: Candles, options: WalkForwardOptions): WalkForwardResult {
  const ranking = rankingOptions(options);
  const space = new ParameterSpace(options.strategy, options.space, options.slMode ?? 'external');
  const indices = space.indices(options.search);
  const folds = walkForwardFolds(candles.time, options.folds, options.from, options.to);
  checkWalkForwardSize(folds.length, indices.length);
  const results: FoldResult[] = [];
  for (const fold of folds) {
    const evaluator = new CombinationEvaluator(candles, options, fold.inSample);
    const evaluations = evaluator.evaluateMany(indices.map((i) => space.combination(i)));
    const { chosen, eligible } = chooseOnInSample(evaluations, ranking);
    const judged = chosen ? judgeOutOfSample(candles, options, fold, chosen, ranking.target) : { figures: null, trades: [] };
    const result: FoldResult = { ...fold, chosen, evaluated: evaluations.length, eligible, outOfSampleFigures: judged.figures, outOfSampleTrades: judged.trades };
    results.push(result);
    options.onFold?.(result);
  }
  return walkForwardSummary(results, { ...ranking, mode: options.folds.mode });
}
