import { hostname } from 'node:os';
import { headCandles } from '@bt/core';
import { readCandlesIpc, type Candles } from '@bt/core/candles';
import { ParamError } from '@bt/core/params';
import { lowerBound } from '@bt/core/simulate';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { cancelRun, finishRun, republishRun, RunNotRunning } from '../backtests/finish.js';
import type { Clock } from '../clock/index.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import type { DatasetStore, MonthRef } from '../datasets/store.js';
import type { EventLog } from '../events/log.js';
import type { Storage } from '../storage/types.js';
import { processExtraction } from './extraction-job.js';
import type { EnginePool } from './pool.js';
import { BACKTEST_QUEUE, JOB_NAMES, shedJobData, type ExtractionJobData, type ExtractionJobResult, type QueueJobData, type QueueJobResult } from './queue.js';
import { engineRequestOf } from './queued-request.js';
import { paramErrorReason, type EngineRequest } from './task.js';
import { testHold } from './test-hold.js';

export interface WorkerOptions {
  url: string;
  prefix: string;
  /** Jobs run at once by this process (on its engine threads). */
  concurrency: number;
  /**
   * A job's lock, renewed while it runs: when a worker dies, another one sees the lock expire
   * within this time (its stalled-job check runs as often) and puts the job back once.
   */
  lockMs: number;
  /** Test seam for the fault tests only (BT_TEST_JOB_HOLD_MS): each job waits this long before its engine, a backtest's less if SIGUSR2 releases it (src/jobs/test-hold.ts); an extraction before writing its file. */
  holdMs?: number;
}

export interface WorkerDeps {
  db: Database;
  storage: Storage;
  datasets: DatasetStore;
  ledger: CreditLedger;
  events: EventLog;
  clock: Clock;
  pool: EnginePool;
  log: (message: string) => void;
}

/** Marks a job given up without running it (its run no longer exists). */
type Skipped = { cancelled: true };

/**
 * A bt-worker's consumer of the job queue (docs/queue.md). An extraction job goes to
 * processExtraction (src/jobs/extraction-job.ts); for each backtest job: the run's row must
 * still be 'running' (else the API gave it up and refunded it: nothing to do), the candles come
 * from the library (official data) or the job (an upload), the engine runs on this process's
 * threads, the workbook is stored and the row marked done (guarded: never over a cancelled run).
 * A job that fails for good has its run cancelled and refunded here too, once (the API does the
 * same when it sees the failure; whichever comes second finds nothing to do).
 */
export class BacktestWorker {
  private worker: Worker | null = null;
  private readonly connection: Redis;

  constructor(
    private readonly options: WorkerOptions,
    private readonly deps: WorkerDeps,
  ) {
    this.connection = new Redis(options.url, { maxRetriesPerRequest: null });
    this.connection.on('error', (err) => this.quietLog(`redis: ${err.message}`));
  }

  private lastLog = 0;
  private quietLog(message: string): void {
    if (Date.now() - this.lastLog < 5000) return;
    this.lastLog = Date.now();
    this.deps.log(`bt-worker: ${message}`);
  }

  start(): void {
    const worker = new Worker<QueueJobData | ExtractionJobData, QueueJobResult | Skipped | ExtractionJobResult>(BACKTEST_QUEUE, (job) => this.dispatch(job), {
      connection: this.connection,
      prefix: this.options.prefix,
      // Recorded on each job it takes (job.processedBy): which worker ran what.
      name: `bt-worker@${hostname()}:${process.pid}`,
      concurrency: this.options.concurrency,
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.lockMs,
      // A worker that dies mid-job: the job goes back to the queue once, then fails (refunded).
      maxStalledCount: 1,
    });
    worker.on('error', (err) => this.quietLog(`queue: ${err.message}`));
    worker.on('failed', (job, err) => {
      if (!job) return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled more than allowable limit/.test(err.message);
      this.deps.log(`bt-worker: job ${job.id} failed${final ? '' : ' (will retry)'}: ${err.message}`);
      // An extraction has nothing to settle: it is charged only once its file exists.
      if (final && job.name === JOB_NAMES.backtest) void this.settle(job.data as QueueJobData);
      if (final) void this.shed(job);
    });
    worker.on('completed', (job) => void this.shed(job));
    this.worker = worker;
  }

  /**
   * A finished backtest job keeps its answer in Redis for a while (docs/queue.md, "Redis memory"),
   * but not the bulky part of its data: an uploaded file's candles (up to a few MB of base64) and
   * a personal strategy's signals are dropped once nothing can run the job again. Best effort: a
   * failure leaves the job as it was, removed later by its count and age.
   */
  private async shed(job: Job<QueueJobData | ExtractionJobData | undefined>): Promise<void> {
    if (job.name !== JOB_NAMES.backtest || !job.data) return;
    const data = job.data as QueueJobData;
    const shed = shedJobData(data);
    if (shed === data) return;
    try {
      await job.updateData(shed);
    } catch (err) {
      this.quietLog(`job ${job.id}: data not shed: ${(err as Error).message}`);
    }
  }

  /** Refund and remove a run whose job failed for good (idempotent with the API's own). */
  private async settle(data: QueueJobData): Promise<void> {
    // A payload without a usable run reference names no run to settle (cancelRun checks every field).
    if (data === null || typeof data !== 'object' || data.run === null || typeof data.run !== 'object') {
      this.deps.log('bt-worker: a failed job without a run reference: nothing to settle');
      return;
    }
    try {
      await cancelRun(this.deps, data.run);
    } catch (err) {
      this.deps.log(`bt-worker: run ${data.run.runId}: cancel failed: ${(err as Error).message}`);
    }
  }

  private async dispatch(job: Job<QueueJobData | ExtractionJobData>): Promise<QueueJobResult | Skipped | ExtractionJobResult> {
    if (job.name === JOB_NAMES.extraction) return processExtraction(this.deps, job.data as ExtractionJobData, this.options.holdMs);
    // Another name is no job of ours (another version's, or a stray add): failed, never run as a backtest.
    if (job.name !== JOB_NAMES.backtest) throw new UnrecoverableError(`unknown job name ${JSON.stringify(String(job.name).slice(0, 40))}`);
    return this.process(job as Job<QueueJobData>);
  }

  private async process(job: Job<QueueJobData>): Promise<QueueJobResult | Skipped> {
    const data = job.data;
    // Read back from Redis: a payload that is not what an API writes fails at once, without a retry.
    const malformed = malformedJobData(data);
    if (malformed) throw new UnrecoverableError(`malformed job data: ${malformed}`);
    // Nobody waits for the answer any more; the API has given the run up (or will, at once).
    // A job of an older API may have no deadline: it runs.
    if (typeof data.deadline === 'number' && Date.now() > data.deadline) throw new UnrecoverableError('expired before a worker took it');
    // The run's row and the candles at once: two independent reads, one waiting for the other cost
    // a database round trip on every job.
    const loading = this.candlesOf(data);
    loading.catch(() => undefined);
    const run = await this.deps.db.models.BacktestRun.findOne({ where: { runId: data.run.runId } });
    if (!run) return { cancelled: true };
    const candles = await loading;
    if (this.options.holdMs) await testHold(this.options.holdMs, this.deps.log, job.id);
    const started = performance.now();
    let request: EngineRequest;
    try {
      request = engineRequestOf(data.request);
    } catch (err) {
      throw new UnrecoverableError(`malformed job data: ${(err as Error).message}`);
    }
    let output: Awaited<ReturnType<EnginePool['run']>>;
    try {
      output = await this.deps.pool.run(candles, request);
    } catch (err) {
      // The user's input, not a fault: no retry, and the API answers it with a 400.
      if (err instanceof ParamError) throw new UnrecoverableError(paramErrorReason(err));
      throw err;
    }
    const { result, workbook } = output;
    const storing = performance.now();
    // A retried job whose first worker died after marking the run done, maybe before its files
    // were published: they are published again, only while the run is still there (its user may
    // have deleted it since this job read it, and a newer run taken its folder's name).
    if (run.status !== 'running') {
      await republishRun(this.deps, run, result, workbook, data.source === 'custom' ? candles : null);
      return { result, storeMs: performance.now() - storing };
    }
    try {
      await finishRun(this.deps, run, result, workbook, data.source === 'custom' ? candles : null, performance.now() - started);
    } catch (err) {
      if (!(err instanceof RunNotRunning)) throw err;
      // Done meanwhile by another attempt of this job: its lock expired while a worker that was
      // alive (frozen, paused) held it, the stalled-job check handed it here, and that worker woke
      // and finished first. Same request, same result: this answer is the one the API waits for
      // (its own completion is refused, the lock being this worker's now).
      const now = await this.deps.db.models.BacktestRun.findOne({ where: { id: run.id, runId: run.runId }, attributes: ['status'] });
      if (now?.status === 'done') return { result, storeMs: performance.now() - storing };
      // Given up (and refunded) while it ran: finishRun published nothing (its files only ever
      // reach the folder while the run owns it), so there is nothing of it to remove. Removing
      // the folder here, as before, could remove a newer run's that took the folder's name.
      return { cancelled: true };
    }
    return { result, storeMs: performance.now() - storing };
  }

  private async candlesOf(data: QueueJobData): Promise<Candles> {
    const { request } = data;
    // An upload's candles travel as text; absent or null (official data, or an older API's job), the library is read.
    if (typeof data.candles === 'string') return readCandlesIpc(Buffer.from(data.candles, 'base64'), { validate: false }).candles;
    const loaded = isMonthRefs(data.months)
      ? await this.deps.datasets.loadFromMonths(data.months, request.symbol, request.timeframe, request.from, request.to)
      : await this.deps.datasets.load(request.symbol, request.timeframe, request.from, request.to);
    if (!loaded) throw new UnrecoverableError(`no official candles for ${request.symbol} ${request.timeframe}`);
    return headCandles(loaded.candles, lowerBound(loaded.candles.time, request.to + 1));
  }

  /** Running jobs finish (up to `graceMs`; past it they are left to the stalled-job check, which requeues them), then the connection closes. */
  async close(graceMs = 30_000): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      let timer: NodeJS.Timeout | undefined;
      const graceful = worker.close();
      const late = await Promise.race([graceful.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
      clearTimeout(timer);
      if (late) await worker.close(true);
    }
    this.connection.disconnect();
  }
}

/**
 * What is wrong with a backtest job's data, '' when it has what the worker reads: a run
 * reference and an engine request (an object each), a source, and candles that are text or absent.
 * The engine checks the request's values itself (a refused one is the user's 400).
 */
export function malformedJobData(data: unknown): string {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return 'not an object';
  const d = data as Record<string, unknown>;
  const run = d.run as Record<string, unknown> | null | undefined;
  if (!run || typeof run !== 'object' || typeof run.runId !== 'string' || !Number.isSafeInteger(run.id) || !Number.isSafeInteger(run.userId) || typeof run.folder !== 'string') return 'no run reference';
  if (d.source !== 'official' && d.source !== 'custom') return 'unknown source';
  if (!d.request || typeof d.request !== 'object' || Array.isArray(d.request)) return 'no engine request';
  const request = d.request as Record<string, unknown>;
  if (typeof request.symbol !== 'string' || typeof request.timeframe !== 'string' || !Number.isFinite(request.from) || !Number.isFinite(request.to)) return 'no symbol, timeframe or period';
  if (d.candles !== undefined && d.candles !== null && typeof d.candles !== 'string') return 'candles neither text nor absent';
  if (d.source === 'custom' && typeof d.candles !== 'string') return "an upload's job without its candles";
  return '';
}

/** The months of a job as the API writes them (anything else: the worker looks them up). */
export function isMonthRefs(value: unknown): value is MonthRef[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= 10_000 &&
    value.every(
      (m) =>
        m !== null &&
        typeof m === 'object' &&
        typeof m.month === 'string' &&
        typeof m.checksum === 'string' &&
        typeof m.path === 'string' &&
        typeof m.ipcPath === 'string' &&
        Number.isInteger(m.rows) &&
        m.rows >= 0,
    )
  );
}
