import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Candles } from '@bt/core/candles';
import { buffersOf, columnsOf, paramErrorOf, type EngineOutput, type EngineRequest } from './task.js';
import type { ThreadAnswer } from './thread.js';

// The worker module beside this one, in the form this process runs (.ts under tsx, .js from dist).
const THREAD = new URL(`./thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * Worker threads that run the engine and write the workbook (docs/architecture.md §4): a backtest's
 * CPU never runs on the event loop, which only validates, charges and stores. As many threads as
 * cores (BT_ENGINE_THREADS to change it); they start on demand and end when idle.
 */
export class EnginePool {
  private pool: Piscina | null = null;
  private readonly threads: number;

  constructor(threads?: number) {
    this.threads = Math.max(1, threads ?? availableParallelism());
  }

  get size(): number {
    return this.threads;
  }

  /** The engine's output; a ParamError when the engine refuses a parameter (as in-process). */
  async run(candles: Candles, request: EngineRequest): Promise<EngineOutput> {
    this.pool ??= new Piscina({ filename: THREAD, minThreads: 0, maxThreads: this.threads, idleTimeout: 30_000 });
    const columns = columnsOf(candles);
    const answer: ThreadAnswer = await this.pool.run({ columns, request }, { transferList: buffersOf(columns) });
    if ('paramError' in answer) throw paramErrorOf(answer.paramError);
    return answer.output;
  }

  /** Tasks waiting for a free thread. */
  queued(): number {
    return this.pool?.queueSize ?? 0;
  }

  /** Waits for the running tasks, then ends the threads. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }
}
