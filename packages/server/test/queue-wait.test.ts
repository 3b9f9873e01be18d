import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Job, Queue, type QueueEvents, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { JobRemovedError, waitForJob } from '../src/jobs/wait.js';
import { startLocalQueue, type LocalQueue } from './support/bullmq.js';
import { freePort } from './support/redis.js';

const PREFIX = `bt-wait-${process.pid}-${randomBytes(3).toString('hex')}`;
const NAME = 'wait-test';

describe("waiting for a queued job's end (the real Redis)", () => {
  let local: LocalQueue;
  let queue: Queue;
  let events: QueueEvents;
  let worker: Worker;
  before(async () => {
    local = await startLocalQueue(NAME, PREFIX, async (job) => {
      if (job.data.fail) throw new Error(`refused: ${job.data.fail}`);
      await new Promise((r) => setTimeout(r, job.data.holdMs ?? 0));
      return { doubled: job.data.n * 2 };
    });
    ({ queue, events, worker } = local);
  });
  after(() => local.close());

  it("answers the job's return value, its failure reason, and a job that ended before the wait began", async () => {
    const done = await queue.add('x', { n: 21, holdMs: 50 });
    assert.deepEqual(await waitForJob(queue, events, done, 5000), { doubled: 42 });
    const failed = await queue.add('x', { fail: 'no' });
    await assert.rejects(waitForJob(queue, events, failed, 5000), /refused: no/);
    const early = await queue.add('x', { n: 5 });
    for (let i = 0; i < 100 && (await early.getState()) !== 'completed'; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await early.getState(), 'completed');
    assert.deepEqual(await waitForJob(queue, events, early, 5000), { doubled: 10 }, 'read from its state, no event left to hear');
  });

  it('a job nobody runs in time fails the wait with the bound, in the words the runner matches', async () => {
    await worker.pause();
    try {
      const stuck = await queue.add('x', { n: 1 });
      await assert.rejects(waitForJob(queue, events, stuck, 300), /timed out before finishing/);
      await stuck.remove();
    } finally {
      worker.resume();
    }
  });

  it('a job taken out of the queue before any worker took it ends the wait at once, as removed, not at the bound', async () => {
    await worker.pause();
    try {
      const dropped = await queue.add('x', { n: 3 });
      const waiting = waitForJob(queue, events, dropped, 60_000);
      const gone = assert.rejects(waiting, (err: Error) => err instanceof JobRemovedError && /removed before finishing \(id=/.test(err.message));
      await events.waitUntilReady();
      assert.equal(await queue.remove(dropped.id!), 1);
      await gone;
    } finally {
      worker.resume();
    }
  });

  it('as many waits at once as requests in flight (the load targets: 20 clients), without a listener-leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    await worker.pause();
    try {
      const jobs = await Promise.all(Array.from({ length: 30 }, (_, n) => queue.add('x', { n })));
      const waits = jobs.map((job) => waitForJob(queue, events, job, 300).catch((err: Error) => err.message));
      for (const outcome of await Promise.all(waits)) assert.match(String(outcome), /timed out before finishing/);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
      await Promise.all(jobs.map((job) => job.remove()));
    } finally {
      process.off('warning', onWarning);
      worker.resume();
    }
  });

  it('a queue connection that fails at the first look does not raise an unhandled rejection: the bound ends the wait', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const port = await freePort();
    // Nothing listens there: every command fails at once (no offline queue).
    const deadConnection = new Redis({ port, host: '127.0.0.1', enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
    const dead = new Queue(NAME, { connection: deadConnection, prefix: PREFIX });
    dead.on('error', () => undefined);
    try {
      const job = new Job(dead, 'x', { n: 1 }, {}, 'never-there');
      await assert.rejects(waitForJob(dead, events, job, 400), /timed out before finishing/);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await dead.close().catch(() => undefined);
      deadConnection.disconnect();
    }
  });
});
