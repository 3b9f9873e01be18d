import type { BacktestRun } from '../db/models.js';
import { EnginePool } from './pool.js';
import type { QueueRunner } from './queue.js';

/**
 * Where backtests run: on this process's worker threads (the embedded default), or through the
 * Redis job queue to bt-worker processes when REDIS_URL is set (docs/queue.md). Both expose
 * `close()` (for the graceful shutdown: running jobs finish, or go back to the queue) and
 * `queueDepth()` (the /metrics gauge).
 */
export type BacktestRunner = ThreadRunner | QueueRunner;

export class ThreadRunner {
  readonly kind = 'threads' as const;
  readonly pool: EnginePool;

  constructor(threads?: number) {
    this.pool = new EnginePool(threads);
  }

  /** Runs waiting for a free thread (not the workbook reads, PDFs or CSVs waiting beside them). */
  async queueDepth(): Promise<number> {
    return this.pool.queuedBacktests();
  }

  /** Lets the running and queued runs finish, then ends the threads. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * A queued run ended without an answer for the API to build, and its row and credits are
 * already settled (refunded, or kept with the result in the user's list): `answer` is the error
 * to send, and the caller must not undo the run again.
 */
export class JobEndedElsewhere extends Error {
  constructor(readonly answer: Error) {
    super(answer.message);
    this.name = 'JobEndedElsewhere';
  }
}

/** What a queued job needs to know of its run's row. */
export interface RunRef {
  id: number;
  runId: string;
  userId: number;
  folder: string;
}

export const runRef = (run: BacktestRun): RunRef => ({ id: run.id, runId: run.runId, userId: run.userId, folder: run.folder });
