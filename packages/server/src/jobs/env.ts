import { availableParallelism } from 'node:os';
import type { QueueOptions } from './queue.js';
import type { WorkerOptions } from './worker.js';

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  // Decimal digits only, as config/env.ts: Number() would read 0x10 and 1e3 too.
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`invalid ${name}: ${raw} (expected an integer from ${min} to ${max})`);
  return value;
}

/**
 * The job queue's settings (docs/queue.md), read by the server and by bt-worker alike:
 * REDIS_URL (unset: no queue, worker threads in the server), QUEUE_PREFIX, JOB_TIMEOUT_MS,
 * WORKER_CONCURRENCY, WORKER_LOCK_MS, ENGINE_THREADS (and REDIS_PREFIX, the queue prefix's default).
 */
export function readJobsEnv(env: Env = process.env) {
  const url = env.REDIS_URL?.trim() || null;
  if (url && !/^rediss?:\/\//.test(url)) throw new Error(`invalid REDIS_URL: ${url.replace(/\/\/[^@/]*@/, '//***@')} (expected redis://host:port[/db] or rediss://...)`);
  // REDIS_PREFIX keeps two deployments on one Redis apart (docs/deployment.md): the queue's keys
  // too, unless QUEUE_PREFIX names them. With the queue on 'bt' whatever REDIS_PREFIX said, one
  // deployment's workers took the other's jobs (finding no run in their database, they threw the
  // run away; an extraction went into the wrong storage while the other side charged for it).
  const prefix = env.QUEUE_PREFIX?.trim() || env.REDIS_PREFIX?.trim().replace(/:+$/, '') || 'bt';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) throw new Error(`invalid QUEUE_PREFIX: ${prefix} (letters, digits, _ . : -)`);
  const cores = availableParallelism();
  const engineThreads = int(env, 'ENGINE_THREADS', cores, 1, 256);
  const queue: QueueOptions | null = url ? { url, prefix, timeoutMs: int(env, 'JOB_TIMEOUT_MS', 60_000, 1000, 3_600_000) } : null;
  const worker: Omit<WorkerOptions, 'url'> = {
    prefix,
    concurrency: int(env, 'WORKER_CONCURRENCY', engineThreads, 1, 1024),
    lockMs: int(env, 'WORKER_LOCK_MS', 30_000, 500, 600_000),
    holdMs: int(env, 'BT_TEST_JOB_HOLD_MS', 0, 0, 600_000),
  };
  return { url, queue, worker, engineThreads };
}
