import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { entryArgs } from './entry.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  pid: number;
  /** What bullmq records as job.processedBy for the jobs this process took. */
  name: string;
  output(): string;
  /** SIGKILL: the process dies at once, mid-job if it has one; waits until it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (running jobs finish), then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/**
 * A real bt-worker process (`src/worker.ts` under tsx, or its compiled copy), on the given environment (DATABASE_URL,
 * DATA_DIR, REDIS_URL, QUEUE_PREFIX...), ready once it says so.
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, entryArgs('worker'), {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SEED_DIR: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (!/bt-worker: ready/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`the worker did not start within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid!,
    name: `:${child.pid}`,
    output: () => output,
    async kill() {
      if (gone()) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone()) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // The bound's timer is cleared once the worker exits: left running, it kept the test file's
      // process alive 10 s after its last test (docs/development.md, "The queue files' waits").
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
      if (!gone()) child.kill('SIGKILL');
    },
  };
}
