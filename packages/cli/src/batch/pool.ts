// Runs a plan's tasks on worker threads, one task per worker at a time (the next task goes to the
// first worker that is free), and reports progress after every run.
import { Worker } from 'node:worker_threads';
import { trackTempFile } from '@bt/core/node';
import type { ProgressState } from '../progress/view.js';
import type { BatchPlan, RunTask } from './plan.js';
import { failedRow, type RunRow } from './run-row.js';
import type { WorkerInput, WorkerMessage, WorkerReply } from './worker.js';

/** As batch/worker.ts's KEPT_DATA_FILES (not imported: that module is the worker's entry). */
const KEPT_DATA_FILES = 2;

/** The shared progress state (runs), with the batch's own: candles processed and the last run. */
export interface Progress extends ProgressState {
  /** Candles processed by finished runs (warm-up included). */
  readonly candles: number;
  readonly last: RunRow | null;
}

export interface PoolOptions {
  readonly concurrency: number;
  readonly onProgress?: (progress: Progress) => void;
  /** The worker script (default: dist/batch-worker.js beside this bundle). */
  readonly workerUrl?: URL;
  readonly now?: () => number;
}

export async function runPool(plan: BatchPlan, options: PoolOptions): Promise<{ rows: RunRow[]; elapsedMs: number; workers: number }> {
  const now = options.now ?? (() => performance.now());
  const url = options.workerUrl ?? new URL('./batch-worker.js', import.meta.url);
  const queue: RunTask[] = [...plan.runs];
  const rows: RunRow[] = [];
  const total = queue.length;
  const workers = Math.max(1, Math.min(options.concurrency, total));
  const started = now();
  let failed = 0;
  let candles = 0;
  const input: WorkerInput = { data: plan.data, ...(plan.out ? { out: plan.out } : {}) };

  const report = (row: RunRow | null) => {
    const elapsedMs = now() - started;
    const done = rows.length;
    options.onProgress?.({ total, done, failed, workers, elapsedMs, etaMs: done > 0 ? (elapsedMs / done) * (total - done) : null, candles, last: row });
  };

  const finish = (row: RunRow) => {
    rows.push(row);
    if (!row.ok) failed++;
    candles += row.candles;
    report(row);
  };

  /**
   * The next run for a worker: one on data it has already read, else the first run of the data
   * with the most runs left that no other worker is reading, so each file is read by as few
   * workers as possible (reading a big file costs more than a run).
   */
  const reading = new Map<number, number>();
  const take = (loaded: ReadonlySet<number>): RunTask | undefined => {
    let at = queue.findIndex((t) => loaded.has(t.data));
    if (at < 0 && queue.length > 0) {
      const left = new Map<number, number>();
      for (const t of queue) left.set(t.data, (left.get(t.data) ?? 0) + 1);
      const score = (d: number) => (left.get(d) ?? 0) / (1 + (reading.get(d) ?? 0));
      const best = [...left.keys()].sort((a, b) => score(b) - score(a) || a - b)[0];
      at = queue.findIndex((t) => t.data === best);
      reading.set(best, (reading.get(best) ?? 0) + 1);
    }
    return at < 0 ? undefined : queue.splice(at, 1)[0];
  };

  await new Promise<void>((resolveAll) => {
    let live = 0;
    const start = () => {
      live++;
      const worker = new Worker(url, { workerData: input });
      let current: RunTask | undefined;
      const loaded = new Set<number>();
      const next = () => {
        current = take(loaded);
        if (current) {
          // What the worker holds: its KEPT_DATA_FILES most recently used files (worker.ts).
          loaded.delete(current.data);
          loaded.add(current.data);
          while (loaded.size > KEPT_DATA_FILES) loaded.delete(loaded.values().next().value!);
        }
        if (current) worker.postMessage({ type: 'run', task: current } satisfies WorkerMessage);
        else worker.postMessage({ type: 'stop' } satisfies WorkerMessage);
      };
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'temp') return trackTempFile(reply.path, reply.writing);
        finish(reply.row);
        next();
      });
      worker.on('error', (error) => {
        // A crashed worker fails its run; a fresh one takes over the rest of the queue.
        if (current) finish(failedRow({ id: current.id, data: plan.data[current.data].label, strategy: current.strategy, grid: current.params, sl_mode: current.slMode }, `worker crashed: ${error.message}`));
        current = undefined;
      });
      worker.on('exit', () => {
        live--;
        if (queue.length > 0) start();
        else if (live === 0) resolveAll();
      });
      next();
    };
    report(null);
    for (let i = 0; i < workers; i++) start();
  });
  rows.sort((a, b) => a.id - b.id);
  return { rows, elapsedMs: now() - started, workers };
}
