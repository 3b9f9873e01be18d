import { timeframeForStep } from '../catalogue/timeframes.js';
import type { TimeframeKey } from '../catalogue/types.js';

/**
 * The steps between consecutive candles, run-length encoded: run k starts at row `row[k]` (file
 * line `line[k]`) and every row from there to the next run is `step[k]` ms after its predecessor.
 * Regular data changes step only at weekends and gaps, so this stays small.
 */
export interface StepRuns {
  row: number[];
  line: number[];
  step: number[];
}

export interface InferredTimeframe {
  /** The most common step in ms (the smallest one on a tie); undefined below two candles. */
  stepMs: number | undefined;
  /** The timeframe with exactly that step, if any of M1..D1 has it. */
  timeframe: TimeframeKey | undefined;
  /** Line of the first candle that follows the most common step (where messages point). */
  firstLine: number;
}

/** Infers the timeframe from the most common step: weekend and holiday gaps do not change it. */
export function inferTimeframe(runs: StepRuns, rows: number): InferredTimeframe {
  const counts = new Map<number, number>();
  const first = new Map<number, number>();
  for (let k = 0; k < runs.step.length; k++) {
    const length = (k + 1 < runs.row.length ? runs.row[k + 1] : rows) - runs.row[k];
    counts.set(runs.step[k], (counts.get(runs.step[k]) ?? 0) + length);
    if (!first.has(runs.step[k])) first.set(runs.step[k], runs.line[k]);
  }
  let stepMs: number | undefined;
  let best = 0;
  for (const [step, count] of counts) {
    if (count > best || (count === best && stepMs !== undefined && step < stepMs)) {
      best = count;
      stepMs = step;
    }
  }
  return {
    stepMs,
    timeframe: stepMs === undefined ? undefined : timeframeForStep(stepMs),
    firstLine: stepMs === undefined ? 0 : first.get(stepMs)!,
  };
}
