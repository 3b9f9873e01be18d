import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Candles } from '@bt/core/candles';
import { buffersOf, columnsOf, ownBytes, paramErrorOf, type CandleColumnsCopy, type EngineOutput, type EngineRequest } from './task.js';
import type { MonthFile, MonthFilesTask } from '../datasets/month-files.js';
import { inLane, LaneQueue } from './lanes.js';
import type { ThreadAnswer, ThreadTask } from './thread.js';
import type { WorkbookText } from '../results/workbook-text.js';
import type { DecodedAnswer, ExpectedSignals, SandboxCodec, SandboxInput } from '../strategies/sandbox/codec.js';
import type { CreditNoteContent, InvoiceContent } from '../payments/invoice-content.js';

// The worker module beside this one, in the form this process runs (.ts under tsx, .js from dist).
const THREAD = new URL(`./thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * The threads' Node options: without require() of ES modules. piscina loads a thread's module with
 * require() first, and on Node 20 a thread ended while require() instantiates an ES module graph
 * aborts the whole process (a failed V8 check, not an error: a pool closed while its threads
 * start, as a server stopped soon after its start). Refused by require(), the module is loaded by
 * piscina's import(), which a thread's end interrupts safely (docs/server.md, "Engine threads").
 */
const THREAD_EXEC_ARGV = process.allowedNodeEnvironmentFlags?.has('--no-experimental-require-module')
  ? [...process.execArgv, '--no-experimental-require-module']
  : process.execArgv;

/**
 * Worker threads that run the engine and write the workbook (docs/architecture.md §4), format
 * extractions' CSVs, make the library's month files and parse results' workbooks: that CPU never
 * runs on the event loop, which only validates, charges and stores. As many threads as cores
 * (ENGINE_THREADS to change it); they start with the first task (bt-worker: at its start) and
 * stay. One pool for every kind of task, so together they never take more threads than that.
 */
export class EnginePool {
  private pool: Piscina | null = null;
  private laneQueue: LaneQueue | null = null;
  private readonly threads: number;

  constructor(
    threads?: number,
    /** false: threads end when idle (a pool for rare work). */
    private readonly keepThreads = true,
    /** false: one queue in order of arrival, as before the lanes (bench/engine-lanes.bench.ts compares). */
    private readonly lanes = true,
  ) {
    this.threads = Math.max(1, threads ?? availableParallelism());
  }

  get size(): number {
    return this.threads;
  }

  /** The engine's output; a ParamError when the engine refuses a parameter (as in-process). */
  async run(candles: Candles, request: EngineRequest): Promise<EngineOutput> {
    const columns = columnsOf(candles);
    const answer = (await this.task({ kind: 'backtest', columns, request })) as ThreadAnswer;
    if ('paramError' in answer) throw paramErrorOf(answer.paramError);
    return answer.output;
  }

  /** The candles as the official CSV (UTF-8 bytes, core's candlesToCsv), formatted on a thread. */
  async csv(candles: Candles): Promise<Uint8Array> {
    return (await this.task({ kind: 'csv', columns: columnsOf(candles) })) as Uint8Array;
  }

  /**
   * The library's month files of an import (src/datasets/month-files.ts) made on a thread: the
   * task's columns are moved there (the caller passes copies of its own), the bytes moved back.
   */
  async monthFiles(task: MonthFilesTask): Promise<MonthFile[]> {
    const warmup = task.mode === 'month' && task.warmupClose ? [task.warmupClose.buffer as ArrayBuffer] : [];
    return (await this.task({ kind: 'month-files', ...task }, warmup)) as MonthFile[];
  }

  /** A result's workbook parsed on a thread, as JSON text per row (src/results/workbook-text.ts). */
  async workbook(bytes: Uint8Array): Promise<WorkbookText> {
    // A copy of its own to move: a file's bytes may be a view of a buffer shared with others.
    const own = new Uint8Array(bytes);
    return (await this.submit({ kind: 'workbook', bytes: own }, [own.buffer])) as WorkbookText;
  }

  /**
   * A personal strategy's two heavy ends on a thread (src/strategies/sandbox/codec.ts): its
   * request written as JSON from copies of the candles, its answer read and checked into signal
   * columns; bytes and columns moved both ways.
   */
  readonly sandbox: SandboxCodec = {
    input: async ({ header, columns, meta }: SandboxInput) => {
      const copies = columns ? columnsOf(columns) : undefined;
      return (await this.submit({ kind: 'sandbox-input', header, meta, columns: copies }, copies ? buffersOf(copies) : [])) as Uint8Array;
    },
    answer: async (stdout: Uint8Array, expected: ExpectedSignals) => {
      const own = ownBytes(stdout);
      return (await this.submit({ kind: 'sandbox-answer', stdout: own, expected }, [own.buffer as ArrayBuffer])) as DecodedAnswer;
    },
  };

  /** An invoice's or a credit note's PDF drawn on a thread (pdfkit and the fonts load there, once per thread), its bytes moved back. */
  async invoicePdf(content: InvoiceContent | CreditNoteContent): Promise<Uint8Array> {
    return (await this.submit({ kind: 'invoice-pdf', content })) as Uint8Array;
  }

  /** The columns are copies of their own (columnsOf): moved to the thread, the caller's candles untouched. */
  private task(task: Extract<ThreadTask, { columns: CandleColumnsCopy }>, more: ArrayBuffer[] = []): Promise<unknown> {
    return this.submit(task, [...buffersOf(task.columns), ...more]);
  }

  /** Every task goes through here: queued in its lane (src/jobs/lanes.ts), its buffers moved. */
  private submit(task: ThreadTask, transferList: ArrayBuffer[] = []): Promise<unknown> {
    return this.threadPool().run(inLane(task), { transferList });
  }

  /**
   * Created at the first task (or by warm()). An engine pool keeps every thread once started: a
   * thread's start (loading the engine's modules) costs a job far more than the queue's own work,
   * and without a floor the first job after a quiet minute would pay it again. A pool for rare
   * work only (the queue mode's imports) lets its threads end when idle.
   */
  private threadPool(): Piscina {
    if (this.pool) return this.pool;
    // Each lane in order: piscina puts a task it took and could not hand over back at the tail
    // unless stricterFIFO, which puts it back at the head of its lane (LaneQueue.unshift).
    this.laneQueue = this.lanes ? new LaneQueue() : null;
    const common = { filename: THREAD, execArgv: THREAD_EXEC_ARGV, taskQueue: this.laneQueue ?? undefined, stricterFIFO: true };
    this.pool = this.keepThreads
      ? new Piscina({ ...common, minThreads: this.threads, maxThreads: this.threads })
      : new Piscina({ ...common, minThreads: 0, maxThreads: this.threads, idleTimeout: 30_000 });
    return this.pool;
  }

  /** Starts the threads now (bt-worker, at its start) rather than at the first task. */
  warm(): void {
    this.threadPool();
  }

  /** Threads running now (started, not ended). */
  get threadsStarted(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Tasks waiting for a free thread. */
  queued(): number {
    return this.pool?.queueSize ?? 0;
  }

  /** Backtests among them (every waiting task for a pool without lanes, which cannot tell). */
  queuedBacktests(): number {
    return this.laneQueue ? this.laneQueue.backtests : this.queued();
  }

  /** Waits for the running tasks, then ends the threads. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }
}
