// A job's lock that expires while its worker is alive (docs/queue.md, "Failures"): the worker
// frozen longer than WORKER_LOCK_MS (a long pause of its machine, SIGSTOP here) looks dead to the
// others, whose stalled-job check hands its job to a second worker; then the first one wakes up
// and finishes first. One run, charged once, one result — and the request gets it, as it does
// when the first worker really died.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BACKTEST_QUEUE } from '../src/jobs/queue.js';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys, waitFor } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-lock-${process.pid}-${randomBytes(3).toString('hex')}`;
/** A hold the test ends (SIGUSR2) once its turn comes; this bound only ends a hold a failed test left. */
const HOLD_MS = 60_000;

describe('a job whose lock expired while its first worker was alive', () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;
  let queue: Queue;
  let redis: Redis;
  const workers: WorkerProcess[] = [];
  const worker = async () => {
    const started = await startWorkerProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      REDIS_URL: SHARED_REDIS,
      QUEUE_PREFIX: PREFIX,
      WORKER_CONCURRENCY: '1',
      ENGINE_THREADS: '1',
      WORKER_LOCK_MS: '1000',
      BT_TEST_JOB_HOLD_MS: String(HOLD_MS),
    });
    workers.push(started);
    return started;
  };

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-lock-'));
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 40_000 } });
    redis = new Redis(SHARED_REDIS, { maxRetriesPerRequest: null });
    queue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix: PREFIX });
  });

  after(async () => {
    for (const w of workers) {
      try {
        process.kill(w.pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
    }
    await Promise.all(workers.map((w) => w.stop()));
    await t?.close();
    await queue?.close();
    redis?.disconnect();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the woken worker finishes first, the second finds the run done: answered 200 with the result, charged once', { timeout: 120_000 }, async () => {
    const user = await funded(t, 10);
    // Two workers started together (each start is seconds of tsx), both holding each job until
    // the test releases it (SIGUSR2, src/jobs/test-hold.ts): whichever takes the job is the first.
    // The order below is the test's signals, not hold lengths raced against a loaded machine.
    const pair = await Promise.all([worker(), worker()]);
    const call = runBacktest(t, user.key);
    const active = async () => (await queue.getJobs(['active']))[0];
    await waitFor(async () => pair.some((w) => w.output().includes(' test hold of job ')), 'the job held by a worker');
    const runId = (await active())!.id!;
    const [first, second] = pair[0].output().includes(`test hold of job ${runId} `) ? pair : [pair[1], pair[0]];
    process.kill(first.pid, 'SIGSTOP');
    // The second worker's stalled-job check finds the lock expired and takes the job; it holds it
    // until the first one, woken meanwhile, has finished the run.
    await waitFor(() => second.output().includes(`test hold of job ${runId} `), 'the job handed to the second worker', 60_000);
    assert.ok((await queue.getJob(runId))?.processedBy?.endsWith(second.name));
    process.kill(first.pid, 'SIGCONT');
    process.kill(first.pid, 'SIGUSR2');
    await waitFor(async () => (await t.db.models.BacktestRun.findOne({ where: { runId } }))?.status === 'done', 'the run finished by the first worker');
    process.kill(second.pid, 'SIGUSR2');
    const res = await call;
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.run_id, runId);
    assert.equal(res.body.credits_remaining, 8);
    const rows = await ledgerRows(t, user.id);
    assert.deepEqual(rows.filter((r) => r.reference === runId).map((r) => [r.kind, r.amount]), [['spend', -2]]);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 1);
    const run = (await t.db.models.BacktestRun.findOne({ where: { runId } }))!;
    assert.equal(run.status, 'done');
    assert.ok(existsSync(join(dataDir, 'files', run.xlsxPath!)), 'the workbook is there');
    const file = await t.request('GET', res.body.download_url, { key: user.key });
    assert.equal(file.status, 200);
  });
});
