/**
 * The Monte Carlo panel's jobs and their answers, as its workers exchange them (docs/web.md,
 * "Monte Carlo"): a bootstrap's runs split in ranges over up to PANEL_MAX_WORKERS workers and
 * merged into core's monteCarlo result to the bit; a shuffle (sequential runs) whole in one. Kept
 * apart from the worker's entry so that the tests run it without a Worker.
 */
import { mergeMonteCarlo, monteCarlo, monteCarloRuns, splitRuns, type MonteCarloMethod, type MonteCarloOptions, type MonteCarloResult, type MonteCarloRuns } from '@bt/core/montecarlo';

/** The panel's draws: 10,000 runs, seed 1 (the text above the panel says so). */
export const PANEL_RUNS = 10_000;
export const PANEL_SEED = 1;
/** Workers at most, whatever the cores: past 4 the merge and the workers' start eat the gain. */
export const PANEL_MAX_WORKERS = 4;
/**
 * Draws per worker below which one more does not pay. Measured in Chromium on 2 cores
 * (docs/PERFORMANCE.md, "Monte Carlo in the browser"): two workers were slower than one up to
 * 10 million draws in all, even with both already started, and faster from 14 million.
 */
export const PANEL_DRAWS_PER_WORKER = 7_000_000;

export interface MonteCarloRequest {
  /** Matches the answer to its request: an answer to a superseded request is dropped. */
  readonly id: number;
  readonly sequence: Float64Array;
  readonly method: MonteCarloMethod;
  readonly riskPerTrade: number;
}

/** What one worker computes: the whole request (range null) or bootstrap runs [from, to). */
export interface MonteCarloJob extends MonteCarloRequest {
  readonly range: { readonly from: number; readonly to: number } | null;
}

export type MonteCarloAnswer = { readonly id: number; readonly result: MonteCarloResult } | { readonly id: number; readonly error: string };
/** A worker's answer: a whole result, a range's figures, or an error. */
export type MonteCarloJobAnswer = MonteCarloAnswer | { readonly id: number; readonly runs: MonteCarloRuns };

const optionsOf = (request: MonteCarloRequest): MonteCarloOptions => ({ method: request.method, riskPerTrade: request.riskPerTrade, runs: PANEL_RUNS, seed: PANEL_SEED });
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The whole Monte Carlo of a request on this thread (a shuffle, a short sequence, no module worker). */
export function answerMonteCarlo(request: MonteCarloRequest): MonteCarloAnswer {
  try {
    return { id: request.id, result: monteCarlo(request.sequence, optionsOf(request)) };
  } catch (e) {
    return { id: request.id, error: message(e) };
  }
}

/** Workers for a request: 1 for a shuffle; else one per PANEL_DRAWS_PER_WORKER draws, within the cores and PANEL_MAX_WORKERS. */
export function panelWorkers(request: Pick<MonteCarloRequest, 'sequence' | 'method'>, hardwareConcurrency: number | undefined): number {
  if (request.method === 'shuffle') return 1;
  const cores = typeof hardwareConcurrency === 'number' && Number.isInteger(hardwareConcurrency) && hardwareConcurrency > 0 ? hardwareConcurrency : 1;
  return Math.max(1, Math.min(cores, PANEL_MAX_WORKERS, Math.floor((PANEL_RUNS * request.sequence.length) / PANEL_DRAWS_PER_WORKER)));
}

/** The request's jobs for `workers` workers, each with its own copy of the sequence (moved to its worker). */
export function splitMonteCarlo(request: MonteCarloRequest, workers: number): MonteCarloJob[] {
  if (request.method !== 'bootstrap' || workers <= 1) return [{ ...request, sequence: request.sequence.slice(), range: null }];
  return splitRuns(PANEL_RUNS, workers).map((range) => ({ ...request, sequence: request.sequence.slice(), range }));
}

/** A worker's answer to one job: never throws. */
export function answerJob(job: MonteCarloJob): MonteCarloJobAnswer {
  if (job.range === null) return answerMonteCarlo(job);
  try {
    return { id: job.id, runs: monteCarloRuns(job.sequence, optionsOf(job), job.range.from, job.range.to) };
  } catch (e) {
    return { id: job.id, error: message(e) };
  }
}

/** The request's answer from its jobs' answers (any order): the first error, or core's merge of the ranges. */
export function mergeAnswers(request: MonteCarloRequest, answers: readonly MonteCarloJobAnswer[]): MonteCarloAnswer {
  const error = answers.find((a) => 'error' in a);
  if (error && 'error' in error) return { id: request.id, error: error.error };
  const whole = answers.find((a) => 'result' in a);
  if (whole && 'result' in whole && answers.length === 1) return { id: request.id, result: whole.result };
  try {
    const parts = answers.map((a) => {
      if (!('runs' in a)) throw new Error('invalid answers: a whole result among ranges');
      return a.runs;
    });
    return { id: request.id, result: mergeMonteCarlo(request.sequence, optionsOf(request), parts) };
  } catch (e) {
    return { id: request.id, error: message(e) };
  }
}
