// A run waiting in the Redis job queue (docs/queue.md) when its account is deleted: the deletion
// refunds and removes it (docs/server.md "Deleting an account") and takes its job out of the queue;
// the request that waited for it is answered at once, as any request after the deletion, 401, not
// the queue's « given up » 503 at the job timeout.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import { BACKTEST_QUEUE } from '../src/jobs/queue.js';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys, waitFor } from './support/redis.js';
import { funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-del-${process.pid}-${randomBytes(3).toString('hex')}`;
const JOB_TIMEOUT_MS = 120_000;

describe(`a queued run whose account is deleted while it waits (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-del-'));
    // No worker: the job would wait until the request gives it up (timeoutMs), long after the
    // deletion, however slow the database; the deletion's removal of the job ends the wait.
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: JOB_TIMEOUT_MS } });
  });

  after(async () => {
    await t?.close();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 401 with the key\'s sentence; the charge is refunded once and the run is gone', async () => {
    const user = await funded(t, 10);
    const running = runBacktest(t, user.key);
    // Awaited below; should a check fail first, its end is not an unhandled rejection.
    running.catch(() => undefined);
    await waitFor(async () => (await t.db.models.BacktestRun.count({ where: { userId: user.id, status: 'running' } })) === 1, 'the run charged and queued');
    const run = (await t.db.models.BacktestRun.findOne({ where: { userId: user.id } }))!;
    const queue = new Queue(BACKTEST_QUEUE, { connection: { url: SHARED_REDIS }, prefix: PREFIX });
    try {
      // The run is charged (its row written) before its job is added to the queue: under load the
      // row can be seen while the job is not there yet (a CI run of 2026-12-03 read 'unknown').
      await waitFor(async () => /^(waiting|prioritized)$/.test(await queue.getJobState(run.runId)), 'queued, no worker to take it');
      const deleted = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal(await queue.getJobState(run.runId), 'unknown', 'the job is out of the queue: nobody runs it');
    } finally {
      await queue.close();
    }
    const answer = await Promise.race([running, new Promise<null>((resolve) => setTimeout(resolve, JOB_TIMEOUT_MS / 2, null).unref())]);
    assert.ok(answer, 'answered by the removal, not at the job timeout');
    assert.deepEqual([answer.status, answer.body.detail], [401, 'Clé API invalide ou expirée.'], answer.text);
    const rows = await ledgerRows(t, user.id);
    const charges = rows.filter((r) => r.kind !== 'grant');
    assert.deepEqual(charges.map((r) => r.kind), ['spend', 'refund'], JSON.stringify(rows.map((r) => [r.kind, r.reference])));
    assert.equal((await t.db.models.User.findByPk(user.id))?.credits, 10);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
  });
});
