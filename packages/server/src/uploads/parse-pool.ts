import { Piscina } from 'piscina';
import type { LibraryCsvResult, LibraryCsvTask } from '../datasets/library-csv.js';
import type { CandleTask, CandleTaskResult } from './candle-task.js';
import type { UploadLimits } from './limits.js';

/** Why a parse did not give an answer: its worker ran out of memory, or out of time. */
export class ParseAborted extends Error {
  constructor(readonly reason: 'memory' | 'timeout') {
    super(`parse ${reason}`);
    this.name = 'ParseAborted';
  }
}

// The worker module beside this one, in the form this process runs (.ts under tsx, .js from dist).
const WORKER = new URL(`./parse-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * Worker threads that read uploaded candle files (and the library's CSVs a reindex reads), each
 * with a capped heap; threads start on demand and end when idle, so an app that never sees an
 * upload never starts one.
 */
export class CandleParsePool {
  private pool: Piscina | null = null;

  constructor(private readonly limits: Pick<UploadLimits, 'concurrency' | 'parseMemoryMb' | 'parseTimeoutMs'>) {}

  async parse(task: CandleTask): Promise<CandleTaskResult> {
    // The bytes move to the worker (no copy); the caller must not use them afterwards.
    return this.run(task, task.bytes, undefined);
  }

  /** A library month CSV of a reindex (datasets/library-csv.ts), under the same caps; its bytes move too. */
  async libraryCsv(task: LibraryCsvTask): Promise<LibraryCsvResult> {
    return this.run(task, task.bytes, 'libraryCsv');
  }

  private async run<T>(task: unknown, bytes: Uint8Array, name: string | undefined): Promise<T> {
    this.pool ??= new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: this.limits.concurrency,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.parseMemoryMb, maxYoungGenerationSizeMb: 64 },
    });
    const signal = AbortSignal.timeout(this.limits.parseTimeoutMs);
    try {
      return await this.pool.run(task, { signal, transferList: [bytes.buffer as ArrayBuffer], ...(name ? { name } : {}) });
    } catch (err) {
      if (signal.aborted) throw new ParseAborted('timeout');
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test((err as Error).message)) throw new ParseAborted('memory');
      throw err;
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
