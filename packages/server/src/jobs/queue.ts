import { candlesToIpc, type Candles } from '@bt/core/candles';
import { Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { HttpError } from '../app/errors.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import type { BacktestRun, RunSource } from '../db/models.js';
import type { Storage } from '../storage/types.js';
import { cancelRun } from '../backtests/finish.js';
import { JOB_MESSAGES } from './messages.js';
import { JobEndedElsewhere, runRef, type RunRef } from './runner.js';
import { paramErrorFromReason, type EngineRequest, type EngineResult } from './task.js';

export const BACKTEST_QUEUE = 'backtests';
/** BullMQ priorities: the lower, the sooner. Every job has one, so none jumps the line by default. */
export const PRIORITY = { pro: 1, standard: 2 } as const;
/** Longest wait for Redis to take a job before the run is given up (503). */
const ENQUEUE_TIMEOUT_MS = 5000;

/** A job as stored in Redis (JSON). */
export interface QueueJobData {
  run: RunRef;
  source: RunSource;
  request: EngineRequest;
  /** An uploaded file's candles (Arrow IPC, base64); official candles are read by the worker from the library. */
  candles: string | null;
  /** After this time (ms) nobody waits for the answer: a worker refuses the job. */
  deadline: number;
}

export interface QueueJobResult {
  result: EngineResult;
  /** Time the worker spent storing the workbook and marking the run done. */
  storeMs: number;
}

export interface QueueOptions {
  url: string;
  /** Key prefix of every queue key (several deployments, or test runs, on one Redis). */
  prefix: string;
  /** How long the API waits for a job's end before giving the run up (refunded). */
  timeoutMs: number;
}

/**
 * The API side of the job queue (docs/queue.md): a run charged by the API is enqueued with its run
 * id as job id, Pro subscribers' first, and the request waits for the job's end (QueueEvents), so
 * the web app's synchronous answer stays. Whenever the API gives a run up (Redis unreachable, the
 * job failed, the wait timed out) the run's row is removed and refunded in one guarded
 * transaction (backtests/finish.ts cancelRun): a worker that finishes later finds no row and
 * stores nothing, and a run that finished first is never refunded.
 */
export class QueueRunner {
  readonly kind = 'queue' as const;
  private readonly connection: Redis;
  private readonly eventsConnection: Redis;
  readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly waiting = new Set<Promise<unknown>>();
  private closing = false;

  constructor(
    readonly options: QueueOptions,
    private readonly deps: { db: Database; ledger: CreditLedger; storage: Storage; log: (message: string) => void },
  ) {
    // Commands fail at once while Redis is away (no offline queue): the request gets a clear 503
    // instead of hanging on a reconnecting client.
    this.connection = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.eventsConnection = new Redis(options.url, { maxRetriesPerRequest: null });
    for (const c of [this.connection, this.eventsConnection]) c.on('error', (err) => this.logError('redis', err));
    this.queue = new Queue(BACKTEST_QUEUE, { connection: this.connection, prefix: options.prefix });
    this.events = new QueueEvents(BACKTEST_QUEUE, { connection: this.eventsConnection, prefix: options.prefix });
    this.queue.on('error', (err) => this.logError('queue', err));
    this.events.on('error', (err) => this.logError('queue events', err));
  }

  private lastError = 0;
  private logError(what: string, err: Error): void {
    // A Redis outage repeats the same error many times a second: one line per 5 s is enough.
    if (Date.now() - this.lastError < 5000) return;
    this.lastError = Date.now();
    this.deps.log(`job queue: ${what}: ${err.message}`);
  }

  /** Enqueues a charged run and waits for its end; every failure is settled here (JobEndedElsewhere). */
  submit(job: { run: BacktestRun; source: RunSource; request: EngineRequest; candles: Candles | null; priority: boolean }): Promise<QueueJobResult> {
    const pending = this.submitAndWait(job);
    this.waiting.add(pending);
    const forget = () => this.waiting.delete(pending);
    pending.then(forget, forget);
    return pending;
  }

  private async submitAndWait(job: { run: BacktestRun; source: RunSource; request: EngineRequest; candles: Candles | null; priority: boolean }): Promise<QueueJobResult> {
    const ref = runRef(job.run);
    if (this.closing) return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.unavailable));
    const data: QueueJobData = {
      run: ref,
      source: job.source,
      request: job.request,
      candles: job.candles ? Buffer.from(candlesToIpc(job.candles)).toString('base64') : null,
      deadline: Date.now() + this.options.timeoutMs,
    };
    let added: Job;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded: while Redis has never been reached (down at start) bullmq waits for it instead of
      // failing. Should the job still reach Redis later, its worker finds the run gone and skips it.
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('enqueue timed out')), ENQUEUE_TIMEOUT_MS)));
      const adding = this.queue.add('backtest', data, {
        jobId: ref.runId,
        priority: job.priority ? PRIORITY.pro : PRIORITY.standard,
        // One try: an engine error is not transient. A worker dying mid-job is another matter:
        // the stalled-job check puts the job back once (maxStalledCount, src/jobs/worker.ts).
        attempts: 1,
        removeOnComplete: { age: 300 },
        removeOnFail: { age: 3600 },
      });
      // Should the bound win the race, the add's own failure comes later (ioredis gives up on its
      // retry once Redis is gone): handled here, or it would be an unhandled rejection that ends
      // the process.
      adding.catch((err: Error) => this.logError('late enqueue', err));
      added = await Promise.race([late, adding]);
    } catch (err) {
      this.logError('enqueue', err as Error);
      return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.unavailable));
    } finally {
      clearTimeout(timer);
    }
    try {
      return (await added.waitUntilFinished(this.events, this.options.timeoutMs)) as QueueJobResult;
    } catch (err) {
      const message = (err as Error).message ?? '';
      if (/timed out before finishing/.test(message)) {
        // Not started yet: out of the queue, so no worker spends time on it.
        await added.remove().catch(() => undefined);
        return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.timeout));
      }
      // The job's own error (its failedReason: a refused parameter is the user's 400), or Redis gone while waiting.
      return this.giveUp(ref, paramErrorFromReason(message) ?? new Error(message));
    }
  }

  /** Cancels and refunds the run unless it finished; a finished run's answer is read back when it can be. */
  private async giveUp(ref: RunRef, answer: Error): Promise<QueueJobResult> {
    let outcome: Awaited<ReturnType<typeof cancelRun>>;
    try {
      outcome = await cancelRun(this.deps, ref);
    } catch (err) {
      // The database is away too: the worker's own failure handling, or the next attempt, settles it.
      this.deps.log(`job queue: run ${ref.runId}: cancel failed: ${(err as Error).message}`);
      throw new JobEndedElsewhere(new HttpError(503, JOB_MESSAGES.unavailable));
    }
    if (outcome === 'done') {
      const finished = await Job.fromId(this.queue, ref.runId).catch(() => undefined);
      if (finished?.returnvalue && 'result' in finished.returnvalue) return finished.returnvalue as QueueJobResult;
      throw new JobEndedElsewhere(new HttpError(503, JOB_MESSAGES.doneLate));
    }
    throw new JobEndedElsewhere(answer);
  }

  /** Jobs waiting for a worker (the /metrics gauge); 0 when Redis cannot tell. */
  async queueDepth(): Promise<number> {
    try {
      return await this.queue.getJobCountByTypes('wait', 'prioritized', 'delayed');
    } catch {
      return 0;
    }
  }

  /**
   * For the graceful shutdown: no new job; the requests waiting for theirs get their answer (up
   * to `graceMs`); then the connections close. The jobs themselves belong to the workers.
   */
  async close(graceMs = this.options.timeoutMs): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.waiting]), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    this.connection.disconnect();
    this.eventsConnection.disconnect();
  }
}
