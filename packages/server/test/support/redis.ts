import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** The machine's shared Redis (scripts/ensure-redis.mjs starts it): tests use their own key prefix there. */
export const SHARED_REDIS = process.env.BT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Deletes the keys matching `pattern` (a test run's prefix), and only those. */
export async function deleteKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export interface PrivateRedis {
  url: string;
  /** Kills it at once (SIGKILL: everything it held is lost, it persists nothing). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** SIGSTOP: it keeps its connections and answers nothing (a partition, a server frozen) until `resume`. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** A redis-server of the test's own on a free loopback port, without persistence, for fault tests. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bt-redis-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    await waitFor(async () => {
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    }, `redis-server on port ${port}`, 10_000);
  };
  const kill = async () => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: start,
    pause: () => void (child as ChildProcess | null)?.kill('SIGSTOP'),
    resume: () => void (child as ChildProcess | null)?.kill('SIGCONT'),
    async stop() {
      (child as ChildProcess | null)?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
