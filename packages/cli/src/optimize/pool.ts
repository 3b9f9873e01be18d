// Worker threads for bt optimize and bt walk-forward: combinations go out in contiguous chunks
// (consecutive combinations share setups and entries), one chunk per free worker at a time.
import { Worker } from 'node:worker_threads';
import type { Combination, Evaluation, Period } from '@bt/core/optimize';
import type { Trade } from '@bt/core/simulate';
import type { TargetFigures } from '@bt/core/stats';
import { RunError } from '../errors.js';
import type { OptimizeReply, OptimizeRequest, OptimizeWorkerInput } from './worker.js';

type Job = { request: OptimizeRequest & { id: number }; resolve: (reply: OptimizeReply) => void; reject: (error: Error) => void };

export class OptimizePool {
  private readonly queue: Job[] = [];
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private nextId = 1;
  private closed = false;
  readonly workers: number;

  constructor(input: OptimizeWorkerInput, concurrency: number, url = new URL('./optimize-worker.js', import.meta.url)) {
    this.workers = Math.max(1, concurrency);
    for (let i = 0; i < this.workers; i++) {
      const worker = new Worker(url, { workerData: input });
      worker.on('message', (reply: OptimizeReply) => {
        const job = this.busy.get(worker);
        this.busy.delete(worker);
        this.idle.push(worker);
        job?.resolve(reply);
        this.dispatch();
      });
      worker.on('error', (error) => this.fail(new RunError(`optimisation worker crashed: ${error.message}`)));
      worker.on('exit', (code) => {
        if (!this.closed && code !== 0) this.fail(new RunError(`optimisation worker stopped (exit ${code})`));
      });
      this.idle.push(worker);
    }
  }

  private fail(error: Error): void {
    for (const job of [...this.busy.values(), ...this.queue.splice(0)]) job.reject(error);
    this.busy.clear();
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      worker.postMessage(job.request);
    }
  }

  private send(request: Record<string, unknown> & { type: 'evaluate' | 'judge' }): Promise<OptimizeReply> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { ...request, id: this.nextId++ } as OptimizeRequest & { id: number }, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Every index evaluated on the period, in chunks; `onChunk(done)` after each. `align`: a grid's
   * exit block (ParameterSpace.exitBlock): chunks of whole blocks, so that no exit grid is split
   * between workers (each would search the same entries' levels).
   */
  async evaluate(period: Period, indices: readonly number[], onChunk?: (done: number, evaluations: readonly Evaluation[]) => void, align = 1): Promise<Evaluation[]> {
    let size = Math.max(1, Math.min(500, Math.ceil(indices.length / (this.workers * 16))));
    if (align > 1 && align <= 2000) size = Math.max(1, Math.round(size / align)) * align;
    let done = 0;
    const chunks: Promise<Evaluation[]>[] = [];
    for (let k = 0; k < indices.length; k += size) {
      chunks.push(
        this.send({ type: 'evaluate', period, indices: indices.slice(k, k + size) }).then((reply) => {
          if (reply.type === 'failed') throw new RunError(reply.message);
          if (reply.type !== 'evaluated') throw new RunError('optimisation worker: unexpected answer');
          done += reply.evaluations.length;
          onChunk?.(done, reply.evaluations);
          return reply.evaluations;
        }),
      );
    }
    return (await Promise.all(chunks)).flat();
  }

  /** One combination on the period: its figures at the target and its trades. */
  async judge(period: Period, combination: Combination, target: 'tp1' | 'tp2'): Promise<{ figures: TargetFigures | null; trades: Trade[] }> {
    const reply = await this.send({ type: 'judge', period, combination, target });
    if (reply.type === 'failed') throw new RunError(reply.message);
    if (reply.type !== 'judged') throw new RunError('optimisation worker: unexpected answer');
    return { figures: reply.figures, trades: reply.trades };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy.keys()];
    await Promise.all(all.map((w) => new Promise<void>((done) => {
      w.once('exit', () => done());
      w.postMessage({ type: 'stop' } satisfies OptimizeRequest);
      // A worker stuck in a long chunk is terminated rather than waited for.
      setTimeout(() => void w.terminate(), 2000).unref();
    })));
  }
}
