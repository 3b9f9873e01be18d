import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Queue } from 'bullmq';
import { jobOptions, KEEP_COMPLETED, KEEP_FAILED } from '../src/jobs/queue.js';
import { startLocalQueue, type LocalQueue } from './support/bullmq.js';
import { waitFor } from './support/redis.js';

const PREFIX = `bt-keep-${process.pid}-${randomBytes(3).toString('hex')}`;
const NAME = 'retention-test';
// An answer the size of a small backtest's, so that what Redis keeps is measured on real bytes.
const ANSWER = 'x'.repeat(4_000);

describe('finished jobs kept in Redis: bounded by count as well as by age (the real Redis)', () => {
  let local: LocalQueue;
  let queue: Queue;
  before(async () => {
    local = await startLocalQueue(
      NAME,
      PREFIX,
      async (job) => {
        if (job.data.fail) throw new Error('refused');
        return { answer: ANSWER, n: job.data.n };
      },
      { concurrency: 50 },
    );
    ({ queue } = local);
  });
  after(() => local.close());

  it('the API’s job options: one attempt, Pro first, completed and failed jobs kept at most by count and age', () => {
    assert.deepEqual(jobOptions('run-1', true), { jobId: 'run-1', priority: 1, attempts: 1, removeOnComplete: { age: 300, count: 1_000 }, removeOnFail: { age: 3_600, count: 1_000 } });
    assert.equal(jobOptions('run-2', false).priority, 2);
  });

  it(`past ${KEEP_COMPLETED.count} completed and ${KEEP_FAILED.count} failed jobs, the oldest are removed and the newest kept`, async () => {
    // More than the worker's concurrency (50): job 0 finishes among the first 50, so is among the 100 removed.
    const extra = 100;
    const add = (prefix: string, count: number, fail: boolean) =>
      queue.addBulk(Array.from({ length: count }, (_, n) => ({ name: 'job', data: { n, fail }, opts: jobOptions(`${prefix}-${n}`, n % 2 === 0) })));
    await add('ok', KEEP_COMPLETED.count + extra, false);
    await add('bad', KEEP_FAILED.count + extra, true);
    const total = KEEP_COMPLETED.count + KEEP_FAILED.count + 2 * extra;
    await waitFor(async () => {
      const counts = await queue.getJobCounts('wait', 'prioritized', 'active');
      return counts.wait + counts.prioritized + counts.active === 0;
    }, `${total} jobs finished`, 60_000);
    const counts = await queue.getJobCounts('completed', 'failed');
    assert.equal(counts.completed, KEEP_COMPLETED.count);
    assert.equal(counts.failed, KEEP_FAILED.count);
    // Which ones: every job finished, but Redis holds only the latest of each kind.
    const completed = await queue.getCompleted(0, -1);
    assert.equal(completed.length, KEEP_COMPLETED.count);
    assert.ok(completed.every((job) => job.returnvalue.answer === ANSWER));
    const kept = new Set(completed.map((job) => job.data.n as number));
    assert.equal(kept.size, KEEP_COMPLETED.count);
    // Finished in about the order added (50 at a time): the last one added is kept, the first not.
    assert.ok(kept.has(KEEP_COMPLETED.count + extra - 1), 'the newest completed job is kept');
    assert.ok(!kept.has(0), 'the oldest completed job is removed');
    assert.equal(await queue.getJob('ok-0'), undefined);
  });
});
