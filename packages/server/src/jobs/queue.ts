import { randomUUID } from 'node:crypto';
import { candlesToIpc, type Candles } from '@bt/core/candles';
import type { Job, JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { HttpError } from '../app/errors.js';
import { importFor } from '../app/optional-module.js';
import type { CreditLedger } from '../credits/ledger.js';
import { isDatabaseUnavailable, type Database } from '../db/database.js';
import { MSG } from '../app/messages.js';
import type { BacktestRun, RunSource } from '../db/models.js';
import type { Storage } from '../storage/types.js';
import { cancelRun } from '../backtests/finish.js';
import type { ExtractionRange } from '../csvs/extraction.js';
import type { MonthRef } from '../datasets/store.js';
import { EXTRACTION_MESSAGES, JOB_MESSAGES } from './messages.js';
import { JobEndedElsewhere, runRef, type RunRef } from './runner.js';
import { carriesSignals, queuedRequest, withoutSignals, type QueuedEngineRequest } from './queued-request.js';
import { paramErrorFromReason, type EngineRequest, type EngineResult } from './task.js';
import { JobRemovedError, waitForJob } from './wait.js';

export const BACKTEST_QUEUE = 'backtests';
/** The job names on that queue: one queue, so Pro priority and the workers are shared by both kinds. */
export const JOB_NAMES = { backtest: 'backtest', extraction: 'extraction' } as const;
/** BullMQ priorities: the lower, the sooner. Every job has one, so none jumps the line by default. */
export const PRIORITY = { pro: 1, standard: 2 } as const;
/** Longest wait for Redis to take a job before the run is given up (503). */
const ENQUEUE_TIMEOUT_MS = 5000;
/** Longest wait for any other command of the API's queue connection (a job's removal, a finished job's read). */
const COMMAND_TIMEOUT_MS = 2000;

/**
 * Finished jobs Redis keeps (docs/queue.md, "Redis memory"). A completed backtest's job holds its
 * answer (about 26 KB of JSON for the official run, with the job's data about 50 KB of Redis
 * memory); kept by age alone, 5 minutes of a 100 runs/s load would hold 1.5 GB. The API reads a
 * finished job only at once after giving its run up, so the count bound costs nothing: 1,000 jobs
 * are seconds of history at the load targets, about 50 MB.
 */
export const KEEP_COMPLETED = { age: 300, count: 1_000 } as const;
export const KEEP_FAILED = { age: 3_600, count: 1_000 } as const;

/** Options of every job the API adds (a backtest's id is its run's, an extraction's its own). */
export function jobOptions(jobId: string, priority: boolean): JobsOptions {
  return {
    jobId,
    priority: priority ? PRIORITY.pro : PRIORITY.standard,
    // One try: an engine error is not transient. A worker dying mid-job is another matter:
    // the stalled-job check puts the job back once (maxStalledCount, src/jobs/worker.ts).
    attempts: 1,
    removeOnComplete: { ...KEEP_COMPLETED },
    removeOnFail: { ...KEEP_FAILED },
  };
}

/** `work`, or a rejection with `message` once `ms` have passed without its end. */
async function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([late, work]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A job whose wait timed out: its answer when it has finished after all (its end not heard: the
 * API's QueueEvents fallen behind the event stream's length, docs/queue.md "Redis memory", or the
 * end just now), else the job removed from the queue (not started yet: no worker spends time on
 * it; a running one is locked and stays). Read before the removal: removing first deleted a
 * finished job with its answer, and a run that was done answered 503.
 */
async function finishedOrRemoved<T>(queue: Queue, job: Job): Promise<T | undefined> {
  const fresh = await queue.getJob(job.id!).catch(() => undefined);
  if (fresh?.finishedOn && fresh.returnvalue !== null && fresh.returnvalue !== undefined) return fresh.returnvalue as T;
  await job.remove().catch(() => undefined);
  return undefined;
}

/** A job as stored in Redis (JSON). */
export interface QueueJobData {
  run: RunRef;
  source: RunSource;
  request: QueuedEngineRequest;
  /** An uploaded file's candles (Arrow IPC, base64); official candles are read by the worker from the library. */
  candles: string | null;
  /**
   * Official candles: the library months the API read them from (path, Arrow copy, checksum), so
   * that the worker reads the same files without querying the index again. Absent from jobs of
   * older APIs: the worker then looks the months up itself.
   */
  months?: MonthRef[] | null;
  /** After this time (ms) nobody waits for the answer: a worker refuses the job. */
  deadline: number;
}

/**
 * A finished job's data without its bulky parts, an uploaded file's candles and a personal
 * strategy's signals (docs/queue.md, "Redis memory"); the same object when there is none.
 */
export function shedJobData(data: QueueJobData): QueueJobData {
  const signals = carriesSignals(data.request);
  if (!data.candles && !signals) return data;
  return { ...data, candles: null, request: signals ? withoutSignals(data.request) : data.request };
}

export interface QueueJobResult {
  result: EngineResult;
  /** Time the worker spent storing the workbook and marking the run done. */
  storeMs: number;
}

/** An extraction as a job (JSON): the worker cuts the range from its library and writes the file. */
export interface ExtractionJobData extends ExtractionRange {
  userId: number;
  /** Where the file goes in the shared storage (the API chose it: the same path as in embedded mode). */
  storagePath: string;
  /** After this time (ms) nobody waits for the answer: a worker refuses the job, or leaves its file unwritten. */
  deadline: number;
}

/** The file written (rows, bytes), or no candle in the range (the API's 404). */
export type ExtractionJobResult = { rows: number; bytes: number } | { empty: true };

/** The queue's Redis connections and BullMQ objects, opened once bullmq and ioredis are loaded. */
interface QueueConnections {
  connection: Redis;
  queue: Queue;
  events: QueueEvents;
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
 * id as job id (an extraction, not charged yet, with an id of its own: `extract`), Pro subscribers' first, and the request waits for the job's end (QueueEvents), so
 * the web app's synchronous answer stays. Whenever the API gives a run up (Redis unreachable, the
 * job failed, the wait timed out) the run's row is removed and refunded in one guarded
 * transaction (backtests/finish.ts cancelRun): a worker that finishes later finds no row and
 * stores nothing, and a run that finished first is never refunded.
 */
export class QueueRunner {
  readonly kind = 'queue' as const;
  private readonly opened: Promise<QueueConnections>;
  private readonly waiting = new Set<Promise<unknown>>();
  private closing = false;
  /** Set once the waiting requests had their grace: the clients stop reconnecting then. */
  private disconnecting = false;

  constructor(
    readonly options: QueueOptions,
    private readonly deps: { db: Database; ledger: CreditLedger; storage: Storage; log: (message: string) => void },
  ) {
    this.opened = this.open();
    // Said once at start; each run then gets the 503 of a queue that is unavailable.
    this.opened.catch((err: Error) => this.deps.log(`job queue: ${err.message}`));
  }

  /** bullmq and ioredis are loaded only when REDIS_URL is set (app/optional-module.ts). */
  private async open(): Promise<QueueConnections> {
    const feature = 'the Redis job queue (REDIS_URL)';
    const [{ Queue, QueueEvents }, { Redis }] = await Promise.all([importFor(feature, 'bullmq', () => import('bullmq')), importFor(feature, 'ioredis', () => import('ioredis'))]);
    // Commands fail at once while Redis is away (no offline queue): the request gets a clear 503
    // instead of hanging on a reconnecting client. A Redis that keeps the connection but answers
    // nothing (a partition dropping packets, a frozen server) fails them after COMMAND_TIMEOUT_MS:
    // without it, the removal of a timed-out job waited for Redis to come back, and the request
    // with it. This connection carries no blocking command (QueueEvents has its own).
    // Reconnects until close (the waiting requests' grace included): a client still retrying
    // after it would keep the process alive, and bullmq's close cannot end one that never
    // connected (it waits for it to be ready).
    const retryStrategy = (times: number) => (this.disconnecting ? null : Math.min(times * 50, 2000));
    const connection = new Redis(this.options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false, commandTimeout: COMMAND_TIMEOUT_MS, retryStrategy });
    connection.on('error', (err) => this.logError('redis', err));
    const queue = new Queue(BACKTEST_QUEUE, { connection, prefix: this.options.prefix });
    // QueueEvents blocks on its connection, so bullmq makes its own from these options (given a
    // client, it would copy it and leave the original idle).
    const events = new QueueEvents(BACKTEST_QUEUE, { connection: { url: this.options.url, maxRetriesPerRequest: null, retryStrategy }, prefix: this.options.prefix });
    queue.on('error', (err) => this.logError('queue', err));
    events.on('error', (err) => this.logError('queue events', err));
    return { connection, queue, events };
  }

  private lastError = 0;
  private logError(what: string, err: Error): void {
    // A Redis outage repeats the same error many times a second: one line per 5 s is enough.
    if (Date.now() - this.lastError < 5000) return;
    this.lastError = Date.now();
    this.deps.log(`job queue: ${what}: ${err.message}`);
  }

  /** Enqueues a charged run and waits for its end; every failure is settled here (JobEndedElsewhere). */
  submit(job: { run: BacktestRun; source: RunSource; request: EngineRequest; candles: Candles | null; months?: readonly MonthRef[] | null; priority: boolean }): Promise<QueueJobResult> {
    return this.track(this.submitAndWait(job));
  }

  /** A request waiting for its job, which the graceful shutdown lets finish (close). */
  private track<T>(pending: Promise<T>): Promise<T> {
    this.waiting.add(pending);
    const forget = () => this.waiting.delete(pending);
    pending.then(forget, forget);
    return pending;
  }

  private async submitAndWait(job: { run: BacktestRun; source: RunSource; request: EngineRequest; candles: Candles | null; months?: readonly MonthRef[] | null; priority: boolean }): Promise<QueueJobResult> {
    const ref = runRef(job.run);
    if (this.closing) return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.unavailable));
    const data: QueueJobData = {
      run: ref,
      source: job.source,
      request: queuedRequest(job.request),
      candles: job.candles ? Buffer.from(candlesToIpc(job.candles)).toString('base64') : null,
      months: job.months ? job.months.map(({ month, rows, checksum, path, ipcPath }) => ({ month, rows, checksum, path, ipcPath })) : null,
      deadline: Date.now() + this.options.timeoutMs,
    };
    let added: Job;
    try {
      added = await this.add(JOB_NAMES.backtest, data, { jobId: ref.runId, priority: job.priority });
    } catch (err) {
      this.logError('enqueue', err as Error);
      return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.unavailable));
    }
    const { queue, events } = await this.opened;
    let answer: QueueJobResult | { cancelled: true } | null | undefined;
    try {
      answer = await waitForJob<QueueJobResult | { cancelled: true }>(queue, events, added, this.options.timeoutMs);
    } catch (err) {
      // Taken out of the queue before a worker took it (its account deleted: dropWaiting).
      if (err instanceof JobRemovedError) return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.givenUp));
      const message = (err as Error).message ?? '';
      if (/timed out before finishing/.test(message)) {
        // Finished, its end unheard (QueueEvents behind, or the end just now): the answer stands.
        const finished = await finishedOrRemoved<QueueJobResult | { cancelled: true }>(queue, added);
        if (finished && typeof finished === 'object' && 'result' in finished) return finished;
        return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.timeout));
      }
      // The job's own error (its failedReason: a refused parameter is the user's 400), or Redis gone while waiting.
      return this.giveUp(ref, paramErrorFromReason(message) ?? new Error(message));
    }
    // The worker found the run given up by someone else while the request waited (the stale sweep
    // of another API process): no result to answer, the run refunded once by whoever gave it up.
    if (!answer || typeof answer !== 'object' || !('result' in answer)) return this.giveUp(ref, new HttpError(503, JOB_MESSAGES.givenUp));
    return answer;
  }

  /**
   * Adds a job, bounded in time: while Redis has never been reached (down at start) bullmq waits
   * for it instead of failing. Should the job still reach Redis later, past its deadline, its
   * worker refuses it (and a backtest's worker finds the run gone).
   */
  private async add(name: string, data: QueueJobData | ExtractionJobData, job: { jobId: string; priority: boolean }): Promise<Job> {
    const { queue } = await this.opened;
    const adding = queue.add(name, data, jobOptions(job.jobId, job.priority));
    // Should the bound win the race, the add's own failure comes later (ioredis gives up on its
    // retry once Redis is gone): handled here, or it would be an unhandled rejection that ends
    // the process.
    adding.catch((err: Error) => this.logError('late enqueue', err));
    return within(adding, ENQUEUE_TIMEOUT_MS, 'enqueue timed out');
  }

  /**
   * Enqueues an extraction and waits for its file (docs/queue.md). Nothing is charged yet: the
   * API charges once the answer says the file exists, so every failure here is a 503 that costs
   * nothing (a worker past the deadline leaves the file unwritten).
   */
  extract(job: { data: Omit<ExtractionJobData, 'deadline'>; priority: boolean }): Promise<ExtractionJobResult> {
    return this.track(this.extractAndWait(job));
  }

  private async extractAndWait(job: { data: Omit<ExtractionJobData, 'deadline'>; priority: boolean }): Promise<ExtractionJobResult> {
    if (this.closing) throw new HttpError(503, EXTRACTION_MESSAGES.unavailable);
    const data: ExtractionJobData = { ...job.data, deadline: Date.now() + this.options.timeoutMs };
    let added: Job;
    try {
      added = await this.add(JOB_NAMES.extraction, data, { jobId: randomUUID(), priority: job.priority });
    } catch (err) {
      this.logError('enqueue', err as Error);
      throw new HttpError(503, EXTRACTION_MESSAGES.unavailable);
    }
    const { queue, events } = await this.opened;
    try {
      return await waitForJob<ExtractionJobResult>(queue, events, added, this.options.timeoutMs);
    } catch (err) {
      const message = (err as Error).message ?? '';
      if (!/timed out before finishing/.test(message)) {
        this.deps.log(`job queue: extraction ${added.id} failed: ${message}`);
        throw new HttpError(503, EXTRACTION_MESSAGES.failed);
      }
      // Finished, its end unheard: its file is there, the answer stands. Else out of the queue.
      const finished = await finishedOrRemoved<ExtractionJobResult>(queue, added);
      if (finished) return finished;
      throw new HttpError(503, EXTRACTION_MESSAGES.timeout);
    }
  }

  /** Cancels and refunds the run unless it finished; a finished run's answer is read back when it can be. */
  private async giveUp(ref: RunRef, answer: Error): Promise<QueueJobResult> {
    let outcome: Awaited<ReturnType<typeof cancelRun>>;
    try {
      outcome = await cancelRun(this.deps, ref);
    } catch (err) {
      // The database is away too: the worker's own failure handling, or the stale-run sweep,
      // settles it. Until then the charge stands, so the answer must not say that none was taken.
      this.deps.log(`job queue: run ${ref.runId}: cancel failed: ${(err as Error).message}`);
      throw new JobEndedElsewhere(new HttpError(503, isDatabaseUnavailable(err) ? MSG.databaseDown : JOB_MESSAGES.unavailable));
    }
    if (outcome === 'done') {
      const finished = await this.opened.then(({ queue }) => queue.getJob(ref.runId)).catch(() => undefined);
      if (finished?.returnvalue && 'result' in finished.returnvalue) return finished.returnvalue as QueueJobResult;
      throw new JobEndedElsewhere(new HttpError(503, JOB_MESSAGES.doneLate));
    }
    throw new JobEndedElsewhere(answer);
  }

  /**
   * Takes the runs' jobs out of the queue if no worker has taken them yet (a deleted account's
   * runs, refunded by the deletion: users/purge.ts), so that nobody runs them and the requests
   * waiting for them are answered now rather than at the job timeout (JobRemovedError). A job a
   * worker holds is locked and stays: its worker finds the run gone. Best effort: Redis away, the
   * jobs stay, and the workers find their runs gone as well. The removals go out together, so a
   * Redis that answers nothing holds the deletion's answer for one command timeout, not one each.
   */
  async dropWaiting(runIds: readonly string[]): Promise<void> {
    if (runIds.length === 0) return;
    try {
      const { queue } = await this.opened;
      // While Redis has never been reached, bullmq waits for it instead of failing (as for add):
      // the deletion's answer waits at most this long.
      const removed = await within(Promise.allSettled(runIds.map((id) => queue.remove(id))), COMMAND_TIMEOUT_MS, 'removal timed out');
      const failed = removed.find((outcome) => outcome.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    } catch (err) {
      this.logError('remove a deleted account\'s jobs', err as Error);
    }
  }

  /** Jobs waiting for a worker (the /metrics gauge); 0 when Redis cannot tell. */
  async queueDepth(): Promise<number> {
    try {
      const { queue } = await this.opened;
      return await queue.getJobCountByTypes('wait', 'prioritized', 'delayed');
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
    await within(Promise.allSettled([...this.waiting]), graceMs, 'grace').catch(() => undefined);
    this.disconnecting = true;
    // Never opened (bullmq or ioredis would not load): nothing to close.
    const opened = await this.opened.catch(() => null);
    if (!opened) return;
    // bullmq's close first waits for its connection to be ready: with Redis away it waits until
    // the client's next retry gives up (retryStrategy), so the wait is bounded.
    await within(Promise.allSettled([opened.events.close(), opened.queue.close()]), COMMAND_TIMEOUT_MS, 'close').catch(() => undefined);
    opened.connection.disconnect();
  }
}
