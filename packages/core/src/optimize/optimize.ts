// optimize(): a grid or random search over a strategy's parameters and exits on one period,
// ranked by an objective with a minimum trade count (docs/engine.md §14).
import type { Candles } from '../candles/types.js';
import type { TargetFigures } from '../stats/types.js';
import { CombinationEvaluator, type Evaluation, type OptimizationBase, type Period } from './evaluator.js';
import { OBJECTIVES, objectiveValue, type Objective } from './figures.js';
import { ParameterSpace, type Search, type SearchSpace } from './space.js';

export interface RankingOptions {
  /** expectancy (R, default), profit_factor, or winrate_low (the Wilson 95 % lower bound of the win rate). */
  readonly objective?: Objective;
  /** The target judged: tp1 (default) or tp2. */
  readonly target?: 'tp1' | 'tp2';
  /** Fewest resolved trades (at the target) for a combination to rank; default 30. */
  readonly minTrades?: number;
}

export interface OptimizeOptions extends OptimizationBase, Period, RankingOptions {
  readonly space: SearchSpace;
  readonly search?: Search;
  /** Called every `progressEvery` combinations (default 100) and at the end. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly progressEvery?: number;
}

/** An evaluation with its score and place. */
export interface RankedEvaluation extends Evaluation {
  /** The objective at the target; null when undefined (no resolved trade) or when the combination failed. */
  readonly score: number | null;
  /** Enough resolved trades at the target (minTrades) and no error. */
  readonly eligible: boolean;
  /** 1-based place among eligible combinations; null for the others. */
  readonly rank: number | null;
}

export interface OptimizeResult {
  readonly objective: Objective;
  readonly target: 'tp1' | 'tp2';
  readonly minTrades: number;
  readonly spaceSize: number;
  readonly dimensions: readonly { name: string; values: readonly unknown[] }[];
  readonly evaluated: number;
  readonly eligible: number;
  readonly failed: number;
  /** Best first: eligible by score, then the rest; ties by more resolved trades, then grid order. */
  readonly ranked: readonly RankedEvaluation[];
  readonly best: RankedEvaluation | null;
  readonly candles: number;
  readonly warmupCandles: number;
}

export const DEFAULT_MIN_TRADES = 30;

export function rankingOptions(o: RankingOptions): Required<RankingOptions> {
  const objective = o.objective ?? 'expectancy';
  if (!OBJECTIVES.includes(objective)) throw new Error(`invalid objective: ${JSON.stringify(objective)} (expected ${OBJECTIVES.join(', ')})`);
  const target = o.target ?? 'tp1';
  if (target !== 'tp1' && target !== 'tp2') throw new Error(`invalid target: ${JSON.stringify(target)} (expected tp1 or tp2)`);
  const minTrades = o.minTrades ?? DEFAULT_MIN_TRADES;
  if (!Number.isInteger(minTrades) || minTrades < 0 || minTrades > 1_000_000) throw new Error(`invalid minTrades: ${String(minTrades)} (expected a whole number ≥ 0)`);
  return { objective, target, minTrades };
}

/** The target's figures of an evaluation (null when it failed). */
export const targetFigures = (e: Evaluation, target: 'tp1' | 'tp2'): TargetFigures | null => (e.figures ? e.figures[target] : null);

/** Scores and orders evaluations (any order in): eligible best first, then the ineligible, then the failed. */
export function rankEvaluations(evaluations: readonly Evaluation[], options: RankingOptions = {}): RankedEvaluation[] {
  const { objective, target, minTrades } = rankingOptions(options);
  const scored = evaluations.map((e) => {
    const f = targetFigures(e, target);
    const score = f ? objectiveValue(f, objective) : null;
    return { e, f, score, eligible: f !== null && score !== null && f.resolved >= minTrades };
  });
  scored.sort((a, b) => {
    if (a.eligible !== b.eligible) return a.eligible ? -1 : 1;
    const sa = a.score ?? -Infinity;
    const sb = b.score ?? -Infinity;
    if (sa !== sb) return sb > sa ? 1 : -1;
    const ra = a.f?.resolved ?? -1;
    const rb = b.f?.resolved ?? -1;
    return rb - ra || a.e.index - b.e.index;
  });
  let place = 0;
  return scored.map(({ e, score, eligible }) => ({ ...e, score, eligible, rank: eligible ? ++place : null }));
}

/**
 * Evaluates the space's combinations (all, or a random subset) on the period and ranks them.
 * Each combination's trades are those runBacktest gives for the same request (without lower-
 * timeframe resolution: the conservative verdicts are ranked).
 */
export function optimize(candles: Candles, options: OptimizeOptions): OptimizeResult {
  const ranking = rankingOptions(options);
  const space = new ParameterSpace(options.strategy, options.space, options.slMode ?? 'external');
  const indices = space.indices(options.search);
  const evaluator = new CombinationEvaluator(candles, options, options);
  const every = Math.max(1, options.progressEvery ?? 100);
  const onProgress = options.onProgress;
  const evaluations: Evaluation[] = evaluator.evaluateMany(
    indices.map((i) => space.combination(i)),
    onProgress ? (done) => (done % every === 0 || done === indices.length) && onProgress(done, indices.length) : undefined,
  );
  return optimizeResult(space, evaluations, ranking, evaluator);
}

/** The result of evaluations made elsewhere (the CLI's workers) as optimize() reports it. */
export function optimizeResult(space: ParameterSpace, evaluations: readonly Evaluation[], options: RankingOptions, period: { candles: number; warmupCandles: number }): OptimizeResult {
  const ranking = rankingOptions(options);
  const ranked = rankEvaluations(evaluations, ranking);
  const eligible = ranked.filter((r) => r.eligible).length;
  return {
    ...ranking,
    spaceSize: space.size,
    dimensions: space.dimensions.map((d) => ({ name: d.name, values: d.values })),
    evaluated: evaluations.length,
    eligible,
    failed: evaluations.filter((e) => e.error !== null).length,
    ranked,
    best: eligible > 0 ? ranked[0] : null,
    candles: period.candles,
    warmupCandles: period.warmupCandles,
  };
}
