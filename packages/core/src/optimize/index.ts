export { ParameterSpace, MAX_EVALUATED, MAX_VALUES, type SearchSpace, type Search, type Combination, type Dimension, type Stage } from './space.js';
export { tableFigures, objectiveValue, OBJECTIVES, type Objective, type TableFigures } from './figures.js';
export { CombinationEvaluator, combinationRequest, type OptimizationBase, type Period, type Evaluation } from './evaluator.js';
export { optimize, optimizeResult, rankEvaluations, rankingOptions, targetFigures, DEFAULT_MIN_TRADES, type OptimizeOptions, type OptimizeResult, type RankedEvaluation, type RankingOptions } from './optimize.js';
export {
  walkForward, walkForwardFolds, walkForwardSummary, chooseOnInSample, judgeOutOfSample, MAX_FOLDS, MAX_WALK_EVALUATIONS, checkWalkForwardSize,
  type FoldSpec, type Fold, type FoldResult, type WalkForwardOptions, type WalkForwardResult, type Survival,
} from './walk-forward.js';
