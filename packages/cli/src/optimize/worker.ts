// An optimisation worker thread: reads the data file once, keeps one evaluator per period (its
// indicators, block structures, setups and entries shared by the combinations it is sent), and
// answers each task with core's evaluations (docs/engine.md §14).
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadCandlesOptions } from '@bt/core/candles';
import { CombinationEvaluator, ParameterSpace, targetFigures, type Combination, type Evaluation, type OptimizationBase, type Period, type SearchSpace } from '@bt/core/optimize';
import type { Trade } from '@bt/core/simulate';
import type { TargetFigures } from '@bt/core/stats';
import { loadCandles, type LoadedData } from '../data.js';

export interface OptimizeWorkerInput {
  readonly data: { readonly path: string; readonly read: ReadCandlesOptions; readonly symbol?: string };
  readonly base: OptimizationBase;
  readonly space: SearchSpace;
}

export type OptimizeRequest =
  | { readonly type: 'evaluate'; readonly id: number; readonly period: Period; readonly indices: readonly number[] }
  | { readonly type: 'judge'; readonly id: number; readonly period: Period; readonly combination: Combination; readonly target: 'tp1' | 'tp2' }
  | { readonly type: 'stop' };

export type OptimizeReply =
  | { readonly type: 'evaluated'; readonly id: number; readonly evaluations: Evaluation[] }
  | { readonly type: 'judged'; readonly id: number; readonly figures: TargetFigures | null; readonly trades: Trade[] }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

const input = workerData as OptimizeWorkerInput;
let data: Promise<LoadedData> | null = null;
let space: ParameterSpace | null = null;
const evaluators = new Map<string, CombinationEvaluator>();

async function evaluatorFor(period: Period): Promise<CombinationEvaluator> {
  data ??= loadCandles(input.data.path, input.data.read, input.data.symbol);
  const { file } = await data;
  const key = JSON.stringify([period.from ?? null, period.to ?? null]);
  let evaluator = evaluators.get(key);
  if (!evaluator) {
    // A walk-forward moves from fold to fold: only the current period's evaluator is kept.
    evaluators.clear();
    evaluator = new CombinationEvaluator(file.candles, input.base, period);
    evaluators.set(key, evaluator);
  }
  return evaluator;
}

async function answer(request: Exclude<OptimizeRequest, { type: 'stop' }>): Promise<OptimizeReply> {
  try {
    const evaluator = await evaluatorFor(request.period);
    if (request.type === 'evaluate') {
      space ??= new ParameterSpace(input.base.strategy, input.space, input.base.slMode ?? 'external');
      return { type: 'evaluated', id: request.id, evaluations: evaluator.evaluateMany(request.indices.map((i) => space!.combination(i))) };
    }
    const evaluation = evaluator.evaluate(request.combination);
    if (evaluation.error !== null) return { type: 'failed', id: request.id, message: evaluation.error };
    return { type: 'judged', id: request.id, figures: targetFigures(evaluation, request.target), trades: evaluator.trades(request.combination) };
  } catch (error) {
    return { type: 'failed', id: request.id, message: (error as Error).message };
  }
}

parentPort?.on('message', async (request: OptimizeRequest) => {
  if (request.type === 'stop') {
    parentPort!.close();
    return;
  }
  parentPort!.postMessage(await answer(request));
});
