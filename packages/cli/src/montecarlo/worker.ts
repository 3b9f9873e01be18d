// A Monte Carlo worker thread: one range of a bootstrap's runs (core's monteCarloRuns), answered
// once, its figures' buffers moved rather than copied (docs/engine.md §15, "Threads").
import { parentPort, workerData } from 'node:worker_threads';
import { monteCarloRuns, runsBuffers, type MonteCarloOptions } from '@bt/core/montecarlo';

export interface MonteCarloWorkerInput {
  readonly r: Float64Array;
  readonly options: MonteCarloOptions;
  readonly from: number;
  readonly to: number;
}

const input = workerData as MonteCarloWorkerInput;
const runs = monteCarloRuns(input.r, input.options, input.from, input.to);
// Plain ArrayBuffers (core allocates them): moved to the main thread, not copied.
parentPort!.postMessage(runs, runsBuffers(runs));
