// A worker that stores a workbook late must never replace a newer run's (docs/queue.md, "A late
// worker's workbook"). Folder names are unique among a user's rows only, so a run given up (its
// row removed and refunded) or deleted by its user frees its folder's name, and the user's next
// run with the same symbol, period, strategy and stop takes it (the targets are not part of the
// name). A worker still holding the old run then wrote its workbook into that folder: over the
// newer run's when that one finished first, or as a file no row owns. Real bt-worker processes on
// the machine's Redis: a `late` one holds each job (BT_TEST_JOB_HOLD_MS) until the test releases
// it (SIGUSR2, src/jobs/test-hold.ts) once the newer run is stored or the result deleted. The run
// is given up as the stale-run sweep of another API gives it up (cancelRun, while its job is held),
// not by the API's own bound: the same row removed and refunded, on the test's signal rather than
// after a wait long enough for a loaded machine.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { cancelRun } from '../src/backtests/finish.js';
import { JOB_MESSAGES } from '../src/jobs/messages.js';
import { BACKTEST_QUEUE, JOB_NAMES, jobOptions, type QueueJobData } from '../src/jobs/queue.js';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys, waitFor } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-late-${process.pid}-${randomBytes(3).toString('hex')}`;
const OTHER_PREFIX = `${PREFIX}-retries`;
/**
 * The `late` worker's hold before its engine, at most: each test releases it once what the late
 * job must come after has happened; this bound only ends a hold a failed test left.
 */
const HOLD_MS = 60_000;
/** Ends a late worker's hold of `jobId`: once it is holding (its log says so), SIGUSR2. */
const release = async (worker: WorkerProcess, jobId: string) => {
  await waitFor(async () => worker.output().includes(`test hold of job ${jobId} `), `job ${jobId} held by the late worker`);
  process.kill(worker.pid, 'SIGUSR2');
};

describe("a late worker and the newer run that took its folder's name", () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;
  let redis: Redis;
  let queue: Queue;
  let retries: Queue | null = null;
  let late: WorkerProcess;
  /** The late worker of the second test, on a queue of its own: started with `late`, in parallel. */
  let lateAgain: WorkerProcess;
  let quick: WorkerProcess | null = null;
  const env = () => ({ DATABASE_URL: database.url, DATA_DIR: dataDir, REDIS_URL: SHARED_REDIS, QUEUE_PREFIX: PREFIX, WORKER_CONCURRENCY: '1', ENGINE_THREADS: '1' });
  const startQuick = async () => (quick ??= await startWorkerProcess(env()));
  const files = (path: string) => join(dataDir, 'files', path);
  /** Every file under a user's results, relative to it. */
  const resultFiles = (userId: number) => {
    const root = files(`results/${userId}`);
    return existsSync(root) ? (readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort()) : [];
  };
  const staged = () => (existsSync(files('.staging')) ? readdirSync(files('.staging')) : []);
  const finished = (jobId: string) => waitFor(async () => Boolean((await queue.getJob(jobId))?.finishedOn), `job ${jobId} finished`, 60_000);

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-late-'));
    // The API's wait for a job (JOB_TIMEOUT_MS): no test waits for it to end (the held run is
    // given up by cancelRun, the held request answered once its job is released), so it is long:
    // each rerun must finish within it, and 3 s did not at a load average of 19.
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 60_000 } });
    redis = new Redis(SHARED_REDIS, { maxRetriesPerRequest: null });
    queue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix: PREFIX });
    [late, lateAgain] = await Promise.all([
      startWorkerProcess({ ...env(), BT_TEST_JOB_HOLD_MS: String(HOLD_MS) }),
      startWorkerProcess({ ...env(), QUEUE_PREFIX: OTHER_PREFIX, BT_TEST_JOB_HOLD_MS: String(HOLD_MS) }),
    ]);
  });

  after(async () => {
    await Promise.all([late?.stop(), lateAgain?.stop(), quick?.stop()]);
    await t?.close();
    await queue?.close();
    await retries?.close();
    redis?.disconnect();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await deleteKeys(SHARED_REDIS, `${OTHER_PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a run given up while its job runs: the rerun that finished first keeps its workbook and record; the old run costs nothing and leaves no file', { timeout: 120_000 }, async () => {
    const user = await funded(t, 10);
    const given = runBacktest(t, user.key, { tp1_pips: 10, tp2_pips: 20 });
    const job = async () => (await queue.getJobs(['active']))[0];
    await waitFor(async () => (await job())?.processedBy?.endsWith(late.name) === true, 'the first run taken by the late worker');
    const old = (await job())!;
    const oldFolder = (old.data as QueueJobData).run.folder;
    // Held (it has read the run, still running): given up now, as another API's stale sweep does.
    await waitFor(() => late.output().includes(`test hold of job ${old.id} `), `job ${old.id} held by the late worker`);
    const deps = { db: t.db, ledger: t.app.services.ledger, storage: t.app.deps.storage, log: () => {} };
    assert.equal(await cancelRun(deps, (old.data as QueueJobData).run), 'cancelled');
    assert.equal(await t.db.models.BacktestRun.count({ where: { runId: old.id! } }), 0, 'the given-up run is gone');
    await startQuick();

    // The rerun, other targets: the same folder's name, finished long before the late worker wakes.
    const rerun = await runBacktest(t, user.key, { tp1_pips: 15, tp2_pips: 30 });
    assert.equal(rerun.status, 200, rerun.text);
    const run = (await t.db.models.BacktestRun.findOne({ where: { runId: rerun.body.run_id } }))!;
    assert.equal(run.folder, oldFolder, 'the rerun took the given-up run’s folder name');
    const mine = readFileSync(files(run.xlsxPath!));

    // The newer run is stored: the late worker wakes now.
    await release(late, old.id!);
    const first = await given;
    assert.deepEqual([first.status, first.body.detail], [503, JOB_MESSAGES.givenUp], first.text);
    await finished(old.id!);
    assert.deepEqual((await queue.getJob(old.id!))!.returnvalue, { cancelled: true });
    const now = (await t.db.models.BacktestRun.findOne({ where: { runId: run.runId } }))!;
    assert.deepEqual([now.status, now.tp1Pips, now.tp2Pips, now.xlsxPath], ['done', 15, 30, run.xlsxPath]);
    assert.ok(readFileSync(files(run.xlsxPath!)).equals(mine), 'the rerun’s workbook, not the given-up run’s');
    assert.equal((await t.request('GET', rerun.body.download_url, { key: user.key })).status, 200);
    assert.deepEqual(resultFiles(user.id), [`${run.folder}/${run.folder}.xlsx`], 'no file of the given-up run');
    assert.deepEqual(staged(), [], 'nothing left in staging');
    // Charged for the rerun only.
    assert.equal(await balance(t, user.id), 8);
    const byRun = (ref: string) => ledgerRows(t, user.id).then((rows) => rows.filter((r) => r.reference === ref).map((r) => r.kind).sort());
    assert.deepEqual(await byRun(old.id!), ['refund', 'spend']);
    assert.deepEqual(await byRun(run.runId), ['spend']);
  });

  it('a retried job of a run its user deleted meanwhile: no file comes back, and a rerun into the folder keeps its own', { timeout: 120_000 }, async () => {
    // The retried jobs go to a late worker of a queue of their own (it reads the run from the
    // database, wherever the job came from), so that the user's runs all go to the quick one.
    await late.stop();
    await startQuick();
    retries = new Queue(BACKTEST_QUEUE, { connection: redis, prefix: OTHER_PREFIX });
    /**
     * The same job again, as the stalled-job check hands a job back when the worker that marked
     * its run done died before the job completed: it reads the run (done) and holds; meanwhile the
     * user deletes the result.
     */
    const retryThenDelete = async (runId: string, folder: string, key: string) => {
      const data = { ...((await queue.getJob(runId))!.data as QueueJobData), deadline: Date.now() + 60_000 };
      const jobId = `${runId}-again`;
      await retries!.add(JOB_NAMES.backtest, data, jobOptions(jobId, false));
      // Holding: it has read the run (done) already.
      await waitFor(async () => lateAgain.output().includes(`test hold of job ${jobId} `), `job ${jobId} held by the late worker`);
      const removed = await t.request('DELETE', `/api/user/backtests/delete/${folder}`, { key });
      assert.equal(removed.status, 200, removed.text);
      return async () => {
        await release(lateAgain, jobId);
        await waitFor(async () => Boolean((await retries!.getJob(jobId))?.finishedOn), `job ${jobId} finished`, 60_000);
      };
    };
    try {
      const user = await funded(t, 10);
      const res = await runBacktest(t, user.key);
      assert.equal(res.status, 200, res.text);
      const done = (await t.db.models.BacktestRun.findOne({ where: { runId: res.body.run_id } }))!;
      const settled = await retryThenDelete(done.runId, done.folder, user.key);
      assert.deepEqual(resultFiles(user.id), []);
      await settled();
      assert.deepEqual(resultFiles(user.id), [], 'no untracked workbook of the deleted run');
      assert.deepEqual(staged(), [], 'nothing left in staging');

      // Again, with a rerun into the freed folder finishing before the retried job stores anything.
      const second = await runBacktest(t, user.key, { tp1_pips: 12 });
      assert.equal(second.status, 200, second.text);
      const previous = (await t.db.models.BacktestRun.findOne({ where: { runId: second.body.run_id } }))!;
      const settledAgain = await retryThenDelete(previous.runId, previous.folder, user.key);
      const rerun = await runBacktest(t, user.key, { tp1_pips: 14 });
      assert.equal(rerun.status, 200, rerun.text);
      const run = (await t.db.models.BacktestRun.findOne({ where: { runId: rerun.body.run_id } }))!;
      assert.equal(run.folder, previous.folder);
      const mine = readFileSync(files(run.xlsxPath!));
      await settledAgain();
      assert.ok(readFileSync(files(run.xlsxPath!)).equals(mine), 'the rerun’s workbook, not the deleted run’s');
      assert.deepEqual(resultFiles(user.id), [`${run.folder}/${run.folder}.xlsx`]);
      assert.deepEqual(staged(), []);
    } finally {
      await lateAgain.stop();
    }
  });
});
