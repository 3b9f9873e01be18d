/**
 * One Monte Carlo request and its answer, as the panel's worker exchanges them (docs/web.md,
 * "Monte Carlo"). Kept apart from the worker's entry so that the tests run it without a Worker.
 */
import { monteCarlo, type MonteCarloMethod, type MonteCarloResult } from '@bt/core/montecarlo';

/** The panel's draws: 10,000 runs, seed 1 (the text above the panel says so). */
export const PANEL_RUNS = 10_000;
export const PANEL_SEED = 1;

export interface MonteCarloRequest {
  /** Matches the answer to its request: an answer to a superseded request is dropped. */
  readonly id: number;
  readonly sequence: Float64Array;
  readonly method: MonteCarloMethod;
  readonly riskPerTrade: number;
}

export type MonteCarloAnswer = { readonly id: number; readonly result: MonteCarloResult } | { readonly id: number; readonly error: string };

export function answerMonteCarlo(request: MonteCarloRequest): MonteCarloAnswer {
  try {
    return { id: request.id, result: monteCarlo(request.sequence, { method: request.method, riskPerTrade: request.riskPerTrade, runs: PANEL_RUNS, seed: PANEL_SEED }) };
  } catch (e) {
    return { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
}
