// The job queue against what the audit of /api/* did not send (docs/queue.md "Hostile jobs"):
// jobs whose data is malformed or written by an older API, a job whose run reference mixes two
// runs, a run given up while its job waits, a job id added twice. Against the machine's Redis (a
// prefix of this run's own, its keys deleted at the end) and a real bt-worker process.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { chargeRun } from '../src/backtests/charge.js';
import { cancelRun } from '../src/backtests/finish.js';
import { BACKTEST_QUEUE, jobOptions, type QueueJobData } from '../src/jobs/queue.js';
import { malformedJobData } from '../src/jobs/worker.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys, waitFor } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { OFFICIAL_RUN, balance, funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-${process.pid}-${randomBytes(3).toString('hex')}`;
/** The last test's queue: its worker holds each job until released (SIGUSR2, src/jobs/test-hold.ts). */
const HELD_PREFIX = `${PREFIX}-held`;

describe(`hostile jobs on the Redis queue (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;
  let queue: Queue;
  let redis: Redis;
  let worker: WorkerProcess;
  /** Started beside `worker` (each start is seconds of tsx) for the last test, on its own queue. */
  let held: WorkerProcess;
  /** A real job's data, as the API writes it (from a first run through the API). */
  let template: QueueJobData;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-hostile-'));
    redis = new Redis(SHARED_REDIS, { maxRetriesPerRequest: null });
    queue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix: PREFIX });
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, REDIS_URL: SHARED_REDIS, WORKER_CONCURRENCY: '1', ENGINE_THREADS: '1', WORKER_LOCK_MS: '1000' };
    // The app and both workers start together: the database is migrated already.
    [t, worker, held] = await Promise.all([
      startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 30_000 } }),
      startWorkerProcess({ ...env, QUEUE_PREFIX: PREFIX }),
      startWorkerProcess({ ...env, QUEUE_PREFIX: HELD_PREFIX, BT_TEST_JOB_HOLD_MS: '60000' }),
    ]);
    const user = await funded(t, 10);
    const res = await runBacktest(t, user.key);
    assert.equal(res.status, 200, res.text);
    template = (await queue.getJob(res.body.run_id))!.data as QueueJobData;
  });

  after(async () => {
    await Promise.all([worker?.stop(), held?.stop()]);
    await t?.close();
    await queue?.close();
    redis?.disconnect();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await deleteKeys(SHARED_REDIS, `${HELD_PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A run charged as the API charges it (2 credits, row 'running'), with no job yet. */
  async function chargedRun(userId: number) {
    const runId = randomUUID();
    const { run } = await chargeRun(
      t.db,
      t.app.services.ledger,
      {
        runId, userId, base: `EURUSD_M15_fvg_pullback_multi_${runId.slice(0, 8)}`, source: 'official', official: true, strategy: 'fvg_pullback_multi', strategyLabel: 'FVG',
        userStrategyId: null, symbol: 'EURUSD', timeframe: 'M15', startDate: '2023-01-01', endDate: '2023-01-31', slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, params: '{}', createdAt: t.clock.now(),
      },
      {},
    );
    return run;
  }
  const refOf = (run: { id: number; runId: string; userId: number; folder: string }) => ({ id: run.id, runId: run.runId, userId: run.userId, folder: run.folder });
  const dataFor = (run: { id: number; runId: string; userId: number; folder: string }): QueueJobData => ({
    ...template,
    run: refOf(run),
    request: { ...template.request, run: { runId: run.runId, userId: run.userId, runSeq: 1 } },
    deadline: Date.now() + 60_000,
  });
  const add = (name: string, data: unknown, jobId: string = randomUUID()) => queue.add(name, data, jobOptions(jobId, false));
  const ended = async (job: Job) => {
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), `job ${job.id} ended`);
    return (await queue.getJob(job.id!))!;
  };

  it('malformed jobs fail at once with their reason, settle nothing that is not theirs, and the worker goes on', async () => {
    const bystander = await funded(t, 4);
    const waiting = await chargedRun(bystander.id);
    const hostile: [string, unknown, RegExp][] = [
      ['backtest', {}, /malformed job data: no run reference/],
      ['backtest', 'texte', /malformed job data: not an object/],
      ['backtest', [1, 2], /malformed job data: not an object/],
      ['backtest', { run: { id: 'x', runId: 5 }, source: 'official', request: {} }, /malformed job data: no run reference/],
      ['backtest', { ...template, run: refOf(waiting), request: 5 }, /malformed job data: no engine request/],
      ['backtest', { ...template, run: refOf(waiting), source: 'ftp' }, /malformed job data: unknown source/],
      ['backtest', { ...template, run: refOf(waiting), source: 'custom', candles: null }, /malformed job data: an upload's job without its candles/],
      ['backtest', { ...template, run: refOf(waiting), candles: 12 }, /malformed job data: candles neither text nor absent/],
      ['mystery', { ...template, run: refOf(waiting) }, /unknown job name "mystery"/],
    ];
    for (const [name, data, reason] of hostile) {
      const job = await ended(await add(name, data));
      assert.equal(await job.getState(), 'failed', `${name} ${JSON.stringify(data).slice(0, 80)}`);
      assert.match(job.failedReason, reason);
      assert.equal(job.attemptsMade, 1, 'no retry');
    }
    // The jobs naming the bystander's run with a bad payload gave it up (refunded once): it cannot run.
    const rows = (await ledgerRows(t, bystander.id)).filter((r) => r.reference === waiting.runId).map((r) => r.kind).sort();
    assert.deepEqual(rows, ['refund', 'spend']);
    assert.equal(await balance(t, bystander.id), 4);
    assert.equal(await t.db.models.BacktestRun.count({ where: { runId: waiting.runId } }), 0);
    // The worker is still there and runs the next run.
    const user = await funded(t, 4);
    const res = await runBacktest(t, user.key, { sl_pips: 12 });
    assert.equal(res.status, 200, res.text);
    assert.doesNotMatch(worker.output(), /unhandled|TypeError/i);
  });

  it('a job whose run reference mixes two runs (one run’s id, another’s run id) removes and refunds neither', async () => {
    const a = await funded(t, 4);
    const b = await funded(t, 4);
    const runA = await chargedRun(a.id);
    const runB = await chargedRun(b.id);
    // It fails (no engine request), and its failure is settled with the mixed reference.
    const mixed = { ...refOf(runA), id: runB.id };
    const job = await ended(await add('backtest', { ...template, run: mixed, request: { ...template.request, symbol: 5 } }));
    assert.equal(await job.getState(), 'failed');
    await waitFor(async () => /bt-worker: job .* failed/.test(worker.output()), 'the failure handled');
    await new Promise((r) => setTimeout(r, 300));
    for (const [user, run] of [[a, runA], [b, runB]] as const) {
      const row = await t.db.models.BacktestRun.findOne({ where: { runId: run.runId } });
      assert.equal(row?.status, 'running', `${run.runId} untouched`);
      assert.equal(await balance(t, user.id), 2, 'still charged, never refunded for another run');
      assert.deepEqual((await ledgerRows(t, user.id)).map((r) => r.kind), ['grant', 'spend']);
    }
    // cancelRun itself: a reference that names no run as a whole cancels nothing.
    const deps = { db: t.db, ledger: t.app.services.ledger, storage: t.app.deps.storage, log: () => {} };
    assert.equal(await cancelRun(deps, { ...refOf(runA), userId: b.id }), 'gone');
    await assert.rejects(cancelRun(deps, { id: 'x' } as never), /malformed run reference/);
    // Each run settled by its own reference: refunded once.
    assert.equal(await cancelRun(deps, refOf(runA)), 'cancelled');
    assert.equal(await cancelRun(deps, refOf(runA)), 'gone');
    assert.equal(await balance(t, a.id), 4);
  });

  it('a job from an older API (no months, no candles field, no deadline) runs from the library; a run given up while its job waits is skipped', async () => {
    const user = await funded(t, 6);
    const run = await chargedRun(user.id);
    const older = dataFor(run) as Partial<QueueJobData>;
    delete older.months;
    delete older.candles;
    delete older.deadline;
    const done = await ended(await add('backtest', older, run.runId));
    assert.equal(await done.getState(), 'completed', done.failedReason);
    const row = await t.db.models.BacktestRun.findOne({ where: { runId: run.runId } });
    assert.equal(row?.status, 'done');
    assert.ok(await t.app.deps.storage.exists(row!.xlsxPath!), 'the workbook stored');
    assert.equal(await balance(t, user.id), 4, 'charged once');

    // Given up (the API's timeout, the stale sweep) before a worker takes its job: the worker skips it.
    const gaveUp = await chargedRun(user.id);
    const deps = { db: t.db, ledger: t.app.services.ledger, storage: t.app.deps.storage, log: () => {} };
    assert.equal(await cancelRun(deps, refOf(gaveUp)), 'cancelled');
    const skipped = await ended(await add('backtest', dataFor(gaveUp), gaveUp.runId));
    assert.equal(await skipped.getState(), 'completed');
    assert.deepEqual(skipped.returnvalue, { cancelled: true });
    assert.equal(await t.app.deps.storage.exists(`results/${user.id}/${gaveUp.folder}`), false, 'no folder');
    assert.deepEqual((await ledgerRows(t, user.id)).filter((r) => r.reference === gaveUp.runId).map((r) => r.kind).sort(), ['refund', 'spend']);
    assert.equal(await balance(t, user.id), 4);
  });

  it('a job id added twice (a run id is unique) runs once: the second add changes nothing', async () => {
    const user = await funded(t, 4);
    const res = await runBacktest(t, user.key, { sl_pips: 14 });
    assert.equal(res.status, 200, res.text);
    const first = (await queue.getJob(res.body.run_id))!;
    const again = await add('backtest', { ...first.data, request: { ...first.data.request, sl_pips: 99 } }, res.body.run_id);
    assert.equal(again.id, first.id);
    await new Promise((r) => setTimeout(r, 500));
    const after = (await queue.getJob(res.body.run_id))!;
    assert.equal(after.processedOn, first.processedOn, 'not run again');
    assert.equal(after.data.request.slPips, first.data.request.slPips, 'its data unchanged');
    assert.equal(await balance(t, user.id), 2, 'charged once');
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 1);
  });

  it('a run given up while its job runs (the stale sweep of another API): the waiting request gets a 503 with a detail, refunded once, no folder', async () => {
    // An API on the held worker's queue (the same database, files and seeded library: no copy,
    // no reindex): its job is taken, then held until the test releases it.
    const app = await startTestApp(database.db, { dataDir, queue: { url: SHARED_REDIS, prefix: HELD_PREFIX, timeoutMs: 30_000 } });
    try {
      const user = await funded(app, 4);
      const call = runBacktest(app, user.key, { sl_pips: 16 });
      await waitFor(() => held.output().includes(' test hold of job '), 'the job taken and held');
      const row = (await app.db.models.BacktestRun.findOne({ where: { userId: user.id, status: 'running' } }))!;
      assert.ok(held.output().includes(`test hold of job ${row.runId} `));
      const deps = { db: app.db, ledger: app.app.services.ledger, storage: app.app.deps.storage, log: () => {} };
      assert.equal(await cancelRun(deps, refOf(row)), 'cancelled');
      process.kill(held.pid, 'SIGUSR2');
      const res = await call;
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.detail, 'Le calcul du backtest a été abandonné. Aucun crédit n’a été débité.');
      assert.deepEqual((await ledgerRows(app, user.id)).filter((r) => r.reference === row.runId).map((r) => r.kind).sort(), ['refund', 'spend']);
      assert.equal(await balance(app, user.id), 4);
      await waitFor(async () => !(await app.app.deps.storage.exists(`results/${user.id}/${row.folder}`)), 'no folder left');
      assert.equal(await app.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
    } finally {
      await app.close();
    }
  });

  it('malformedJobData accepts what the API writes', () => {
    assert.equal(malformedJobData(template), '');
    assert.equal(malformedJobData({ ...template, months: undefined, deadline: undefined }), '');
  });
});
