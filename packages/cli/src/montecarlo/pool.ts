// `bt backtest --monte-carlo` on several threads: a bootstrap's runs split in contiguous ranges
// (core's splitRuns), the first computed on the main thread while worker threads compute the
// others, merged into the very result of core's monteCarlo (docs/engine.md §15, "Threads").
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { mergeMonteCarlo, monteCarlo, monteCarloRuns, monteCarloSize, splitRuns, type MonteCarloOptions, type MonteCarloResult, type MonteCarloRuns } from '@bt/core/montecarlo';
import { RunError } from '../errors.js';
import type { MonteCarloWorkerInput } from './worker.js';

/**
 * Draws per thread below which one more thread costs more than it saves. A worker thread's start
 * took 30 ms at best on the 2-core test machine and up to 200 ms while other work kept its cores
 * busy, and a fresh thread's kernel runs cold (about 7.8 ns per draw in a fresh process, against
 * 5.5 warm): with 25 million draws per thread, a second thread saves 100 to 200 ms against that
 * start. Below it the measured wall time with two threads was no better, often worse
 * (docs/PERFORMANCE.md, "Monte Carlo on threads").
 */
export const DRAWS_PER_THREAD = 25_000_000;

/**
 * Cores other work leaves free: the available ones less the 1-minute load average (whole tasks),
 * at least 1. On a machine whose cores are busy a worker thread gets no core of its own: it only
 * adds its start and its share waits (docs/PERFORMANCE.md, "Monte Carlo on threads").
 */
export function freeCores(cores = availableParallelism(), load = loadavg()[0]): number {
  return Math.max(1, cores - Math.floor(Number.isFinite(load) && load > 0 ? load : 0));
}

/**
 * Threads for a Monte Carlo: a shuffle's runs are sequential (one thread); `requested` when given;
 * else one per DRAWS_PER_THREAD draws, at most the free cores. Never more than the groups of
 * four runs (splitRuns).
 */
export function monteCarloThreads(r: ArrayLike<number>, options: MonteCarloOptions, requested: number | null, cores = freeCores()): number {
  const { method, runs, tradesPerRun } = monteCarloSize(r, options);
  if (method === 'shuffle') return 1;
  const wanted = requested ?? Math.min(cores, Math.floor((runs * tradesPerRun) / DRAWS_PER_THREAD));
  return Math.max(1, Math.min(wanted, Math.ceil(runs / 4)));
}

function inWorker(url: URL, input: MonteCarloWorkerInput, started: Worker[]): Promise<MonteCarloRuns> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: input });
    started.push(worker);
    let answered = false;
    worker.once('message', (runs: MonteCarloRuns) => {
      answered = true;
      resolve(runs);
    });
    worker.once('error', (error) => reject(new RunError(`Monte Carlo worker crashed: ${error.message}`)));
    worker.once('exit', (code) => {
      if (!answered) reject(new RunError(`Monte Carlo worker stopped (exit ${code}) without an answer`));
    });
  });
}

/**
 * core's monteCarlo(r, options) on `threads` threads (the main one included): the same result to
 * the bit. `r` and `options` are checked first, on this thread, so a bad request starts no worker.
 */
export async function monteCarloOnThreads(r: Float64Array, options: MonteCarloOptions, threads: number, url = new URL('./monte-carlo-worker.js', import.meta.url)): Promise<MonteCarloResult> {
  const { runs } = monteCarloSize(r, options);
  const ranges = threads > 1 ? splitRuns(runs, threads) : [];
  if (ranges.length <= 1) return monteCarlo(r, options);
  const started: Worker[] = [];
  try {
    const others = ranges.slice(1).map((g) => inWorker(url, { r, options, from: g.from, to: g.to }, started));
    // Failures are collected by Promise.all below; without this a rejection before it would be unhandled.
    for (const p of others) p.catch(() => undefined);
    const first = monteCarloRuns(r, options, ranges[0].from, ranges[0].to);
    return mergeMonteCarlo(r, options, [first, ...(await Promise.all(others))]);
  } finally {
    for (const worker of started) void worker.terminate();
  }
}
