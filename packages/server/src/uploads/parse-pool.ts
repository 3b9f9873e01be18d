import { fork, type ChildProcess } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type { LibraryCsvResult, LibraryCsvTask } from '../datasets/library-csv.js';
import type { CandleTask, CandleTaskResult } from './candle-task.js';
import type { UploadLimits } from './limits.js';
import type { ParseReply, ParseRequest } from './parse-process.js';

/** Why a parse did not give an answer: its process ran out of memory, or out of time. */
export class ParseAborted extends Error {
  constructor(readonly reason: 'memory' | 'timeout') {
    super(`parse ${reason}`);
    this.name = 'ParseAborted';
  }
}

// The entry beside this module, in the form this process runs (.ts under tsx, .js from dist).
const ENTRY = fileURLToPath(new URL(`./parse-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const IDLE_MS = 30_000;
const STDERR_KEPT = 4096;

interface ParseProcess {
  child: ChildProcess;
  stderr: string;
  idle?: NodeJS.Timeout;
}

/**
 * Processes that read uploaded candle files (and the library's CSVs a reindex reads), each with
 * a capped heap. Processes, not worker threads: a thread that reaches its heap limit can abort
 * the whole server ("Reached heap limit", seen in our tests; docs/security.md, "Uploads"), a
 * process only itself. They start on demand and end when idle, so an app that never sees an
 * upload never starts one; a task waits while `concurrency` of them are busy.
 */
export class CandleParsePool {
  private readonly idle: ParseProcess[] = [];
  private running = 0;
  private readonly waiting: { resolve: (p: ParseProcess | null) => void; reject: (err: Error) => void }[] = [];
  private readonly all = new Set<ParseProcess>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly limits: Pick<UploadLimits, 'concurrency' | 'parseMemoryMb' | 'parseTimeoutMs'>) {}

  /** The bytes are copied to the process; the caller may reuse them. */
  parse(task: CandleTask): Promise<CandleTaskResult> {
    return this.run((id) => ({ id, name: 'candles', task }));
  }

  /** A library month CSV of a reindex (datasets/library-csv.ts), under the same caps; the process's pid names its reader. */
  libraryCsv(task: LibraryCsvTask): Promise<LibraryCsvResult> {
    return this.run((id) => ({ id, name: 'libraryCsv', task }));
  }

  /** The processes alive now (tests). */
  get processes(): number {
    return this.all.size;
  }

  private async run<T>(request: (id: number) => ParseRequest): Promise<T> {
    const worker = await this.acquire();
    try {
      return await this.send<T>(worker, request(this.nextId++));
    } finally {
      this.release(worker);
    }
  }

  private async acquire(): Promise<ParseProcess> {
    if (this.closed) throw new Error('the parse pool is closed');
    const ready = this.idle.pop();
    if (ready) {
      clearTimeout(ready.idle);
      this.hold(ready, true);
      this.running++;
      return ready;
    }
    if (this.running < this.limits.concurrency) {
      this.running++;
      return this.start();
    }
    const handed = await new Promise<ParseProcess | null>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // A process handed over as it is; null: a turn freed by a process that ended, start another.
    return handed ?? this.start();
  }

  private release(worker: ParseProcess): void {
    const alive = this.all.has(worker);
    const next = this.waiting.shift();
    if (next) {
      next.resolve(alive ? worker : null);
      return;
    }
    this.running--;
    if (!alive) return;
    this.hold(worker, false);
    worker.idle = setTimeout(() => this.end(worker), IDLE_MS);
    worker.idle.unref();
    this.idle.push(worker);
  }

  private start(): ParseProcess {
    // The server's own flags (tsx's loader, conditions) so the entry loads as this module did; the
    // heap cap replaces any of the server's own.
    const execArgv = [...process.execArgv.filter((a) => !/^--(max-old-space-size|inspect|heapsnapshot)/.test(a)), `--max-old-space-size=${this.limits.parseMemoryMb}`];
    const child = fork(ENTRY, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const worker: ParseProcess = { child, stderr: '' };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (worker.stderr = (worker.stderr + chunk).slice(-STDERR_KEPT)));
    child.once('exit', () => this.forget(worker));
    child.on('error', () => this.forget(worker));
    this.all.add(worker);
    return worker;
  }

  private send<T>(worker: ParseProcess, request: ParseRequest): Promise<T> {
    const { child } = worker;
    return new Promise<T>((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, this.limits.parseTimeoutMs);
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
      };
      const onMessage = (reply: ParseReply) => {
        if (reply.id !== request.id) return;
        done();
        if (reply.ok) resolve(reply.result as T);
        else reject(new Error(reply.message));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        done();
        if (timedOut) reject(new ParseAborted('timeout'));
        else if (outOfMemory(code, signal, worker.stderr)) reject(new ParseAborted('memory'));
        else reject(new Error(`the parse process ended (${signal ?? `code ${code}`}): ${worker.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`));
      };
      const onError = (err: Error) => {
        done();
        child.kill('SIGKILL');
        reject(err);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', onError);
      child.send(request, (err) => err && onError(err));
    });
  }

  /** Idle processes do not keep the server's event loop alive; busy ones do. */
  private hold(worker: ParseProcess, busy: boolean): void {
    const handles = [worker.child, worker.child.channel, worker.child.stderr] as ({ ref?: () => void; unref?: () => void } | null | undefined)[];
    for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
  }

  private end(worker: ParseProcess): void {
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    worker.child.kill('SIGKILL');
  }

  private forget(worker: ParseProcess): void {
    clearTimeout(worker.idle);
    this.all.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the parse pool is closed'));
    const ends = [...this.all].map((worker) => new Promise<void>((resolve) => {
      if (worker.child.exitCode !== null || worker.child.signalCode !== null) return resolve();
      // Held again, so the event loop waits for the end it is told of.
      this.hold(worker, true);
      worker.child.once('exit', () => resolve());
      worker.child.kill('SIGKILL');
    }));
    await Promise.all(ends);
  }
}

/** V8 aborts a process past its heap cap (SIGABRT, or exit 134 where a shell relays it) and says why on stderr. */
function outOfMemory(code: number | null, signal: NodeJS.Signals | null, stderr: string): boolean {
  return /heap out of memory|Reached heap limit|Allocation failed/i.test(stderr) || signal === 'SIGABRT' || code === 134;
}
