/**
 * QueueRunner.dropWaiting on its own (docs/queue.md "Failures"): what an account's deletion calls
 * to take its refunded runs' jobs out of the Redis queue. Waiting jobs go, a job a worker holds
 * stays, unknown ids are nothing, and a Redis that is down or frozen fails nothing and holds the
 * deletion's answer for a bounded time only.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Queue, Worker } from 'bullmq';
import { BACKTEST_QUEUE, QueueRunner } from '../src/jobs/queue.js';
import { deleteKeys, SHARED_REDIS, startPrivateRedis, waitFor } from './support/redis.js';

const PREFIX = `bt-drop-${process.pid}-${randomBytes(3).toString('hex')}`;

/** A runner whose database, ledger and storage are never reached by dropWaiting. */
function runner(url: string, logs: string[]): QueueRunner {
  const unused = new Proxy({}, { get: () => assert.fail('dropWaiting reached a dependency it does not need') });
  return new QueueRunner({ url, prefix: PREFIX, timeoutMs: 60_000 }, { db: unused as never, ledger: unused as never, storage: unused as never, log: (m) => logs.push(m) });
}

describe("dropping a deleted account's waiting jobs", () => {
  after(() => deleteKeys(SHARED_REDIS, `${PREFIX}:*`));

  it('removes the waiting jobs, leaves the one a worker holds, and ignores ids it does not know', async () => {
    const queue = new Queue(BACKTEST_QUEUE, { connection: { url: SHARED_REDIS }, prefix: PREFIX });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker(BACKTEST_QUEUE, () => held, { connection: { url: SHARED_REDIS, maxRetriesPerRequest: null }, prefix: PREFIX, autorun: false });
    const logs: string[] = [];
    const api = runner(SHARED_REDIS, logs);
    try {
      await queue.add('backtest', {}, { jobId: 'run-active' });
      worker.run();
      await waitFor(async () => (await queue.getJobState('run-active')) === 'active', 'a worker holds the first job');
      await worker.pause(true);
      await queue.add('backtest', {}, { jobId: 'run-waiting' });
      await queue.add('backtest', {}, { jobId: 'run-prioritized', priority: 5 });
      await queue.add('backtest', {}, { jobId: 'run-other-account' });

      await api.dropWaiting(['run-waiting', 'run-prioritized', 'run-active', 'run-unknown']);
      assert.equal(await queue.getJobState('run-waiting'), 'unknown');
      assert.equal(await queue.getJobState('run-prioritized'), 'unknown');
      assert.equal(await queue.getJobState('run-active'), 'active', 'a held job is locked: its worker finds the run gone');
      assert.equal(await queue.getJobState('run-other-account'), 'waiting', 'only the ids asked for');
      assert.deepEqual(logs, []);
    } finally {
      release();
      await worker.close();
      await queue.close();
      await api.close(0);
    }
  });

  it('with Redis down since the start, or frozen, answers without an error within its bound and logs', { timeout: 60_000 }, async () => {
    const own = await startPrivateRedis();
    const logs: string[] = [];
    // Down before the runner starts: bullmq would wait for a first connection; the bound answers.
    await own.kill();
    const never = runner(own.url, logs);
    try {
      await never.dropWaiting(['run-1', 'run-2']);
      assert.ok(logs.some((line) => line.startsWith('job queue:')), logs.join('\n'));
    } finally {
      // Still down: bullmq's close would wait for a first connection; the runner's is bounded.
      await never.close(0);
      await own.restart();
    }
    // Frozen after it answered (a partition, a paused server): each command gives up on its own.
    const frozen = runner(own.url, []);
    try {
      await frozen.queueDepth();
      own.pause();
      await frozen.dropWaiting(['run-3', 'run-4', 'run-5']);
    } finally {
      own.resume();
      await frozen.close(0);
      await own.stop();
    }
  });
});
