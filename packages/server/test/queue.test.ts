// Backtests through the Redis job queue (docs/queue.md), against the machine's Redis (a queue
// prefix of this run's own, its keys deleted at the end) and real bt-worker processes: two workers
// share the jobs, Pro subscribers' jobs come first, a worker killed mid-job leaves its job retried
// once and the credits exact.
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
import { BREAKOUT_PY, fixture, funded, importStrategy, ledgerRows, OFFICIAL_RUN, runBacktest } from './support/work.js';

const PREFIX = `bt-test-${process.pid}-${randomBytes(3).toString('hex')}`;
const LOCK_MS = 1000;

describe('backtests on the Redis job queue, run by bt-worker processes', () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;
  let queue: Queue;
  let redis: Redis;
  const workers: WorkerProcess[] = [];

  const worker = async (env: Record<string, string> = {}) => {
    const started = await startWorkerProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      REDIS_URL: SHARED_REDIS,
      QUEUE_PREFIX: PREFIX,
      WORKER_CONCURRENCY: '1',
      ENGINE_THREADS: '1',
      WORKER_LOCK_MS: String(LOCK_MS),
      ...env,
    });
    workers.push(started);
    return started;
  };
  // One plain worker shared by the last tests (each start costs seconds of tsx).
  let plain: WorkerProcess | undefined;
  const plainWorker = async () => (plain ??= await worker());
  const depth = () => t.app.services.backtests.runner.queueDepth();
  const job = async (runId: string) => (await queue.getJob(runId))!;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-data-'));
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 30_000 } });
    redis = new Redis(SHARED_REDIS, { maxRetriesPerRequest: null });
    queue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix: PREFIX });
  });

  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await t?.close();
    await queue?.close();
    redis?.disconnect();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs Pro subscribers' jobs first, then two workers share the jobs; every run charged once", async () => {
    const standard = await funded(t, 100);
    const pro = await funded(t, 100);
    await t.db.models.User.update({ plan: 'SUB_25', subscriptionRenewDate: new Date('2026-02-15T00:00:00Z'), backtestPriority: true }, { where: { id: pro.id } });

    // No worker yet: three standard jobs wait, then three Pro ones join the line behind them.
    const standardCalls = [0, 1, 2].map((i) => runBacktest(t, standard.key, { sl_pips: 10 + i }));
    await waitFor(async () => (await depth()) === 3, 'three jobs queued');
    const proCalls = [0, 1, 2].map((i) => runBacktest(t, pro.key, { sl_pips: 20 + i }));
    await waitFor(async () => (await depth()) === 6, 'six jobs queued');
    const first = await worker();
    const answers = await Promise.all([...standardCalls, ...proCalls]);
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const started = async (runIds: string[]) => Promise.all(runIds.map(async (id) => (await job(id)).processedOn!));
    const standardStarts = await started(answers.slice(0, 3).map((r) => r.body.run_id));
    const proStarts = await started(answers.slice(3).map((r) => r.body.run_id));
    assert.ok(Math.max(...proStarts) <= Math.min(...standardStarts), `Pro jobs first: pro ${proStarts}, standard ${standardStarts}`);

    // The same answer as in-process: the workbook is where the answer says, and downloads.
    const file = await t.request('GET', answers[0].body.download_url, { key: standard.key });
    assert.equal(file.status, 200);

    // A second worker: the next burst is shared (each holds a job 300 ms, so neither takes them all).
    await first.stop();
    const [a, b] = await Promise.all([worker({ BT_TEST_JOB_HOLD_MS: '300' }), worker({ BT_TEST_JOB_HOLD_MS: '300' })]);
    const burst = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => runBacktest(t, standard.key, { sl_pips: 30 + i })));
    for (const res of burst) assert.equal(res.status, 200, res.text);
    const by = await Promise.all(burst.map(async (r) => (await job(r.body.run_id)).processedBy ?? ''));
    assert.ok(by.some((name) => name.endsWith(a.name)) && by.some((name) => name.endsWith(b.name)), `both workers ran jobs: ${by.join(', ')}`);

    for (const [user, runs] of [[standard, 9], [pro, 3]] as const) {
      const rows = await ledgerRows(t, user.id);
      assert.equal(rows.filter((r) => r.kind === 'spend').length, runs);
      assert.equal(rows.filter((r) => r.kind === 'refund').length, 0);
      assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 100 - 2 * runs);
    }
    assert.equal(await t.db.models.BacktestRun.count({ where: { status: 'running' } }), 0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a worker killed mid-job: the job is retried once by another worker, charged once, answered', async () => {
    const user = await funded(t, 10);
    const doomed = await worker({ BT_TEST_JOB_HOLD_MS: '3000' });
    const call = runBacktest(t, user.key);
    await waitFor(async () => (await queue.getActiveCount()) === 1, 'the job taken by the first worker');
    await doomed.kill();
    // The survivor finds the job's lock expired (WORKER_LOCK_MS) and runs it again.
    const survivor = await worker();
    const res = await call;
    assert.equal(res.status, 200, res.text);
    const ran = await job(res.body.run_id);
    assert.equal(ran.stalledCounter, 1);
    assert.ok(ran.processedBy?.endsWith(survivor.name), `retried by the survivor: ${ran.processedBy}`);
    const rows = await ledgerRows(t, user.id);
    assert.deepEqual(rows.filter((r) => r.reference === res.body.run_id).map((r) => [r.kind, r.amount]), [['spend', -2]]);
    assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 8);
    assert.equal(res.body.credits_remaining, 8);
    await survivor.stop();
  });

  it('a job whose workers die twice fails: the run is refunded once and answered 503 with a detail', async () => {
    const user = await funded(t, 10);
    const first = await worker({ BT_TEST_JOB_HOLD_MS: '3000' });
    const call = runBacktest(t, user.key, OFFICIAL_RUN);
    await waitFor(async () => (await queue.getActiveCount()) === 1, 'the job taken by the first worker');
    await first.kill();
    const second = await worker({ BT_TEST_JOB_HOLD_MS: '3000' });
    await waitFor(async () => (await queue.getActiveCount()) === 1 && (await queue.getJobs(['active']))[0]?.processedBy?.endsWith(second.name) === true, 'the job retried by the second worker');
    await second.kill();
    const third = await worker();
    const res = await call;
    assert.equal(res.status, 503, res.text);
    assert.match(res.body.detail, /Aucun crédit n’a été débité/);
    const rows = await ledgerRows(t, user.id);
    const kinds = rows.filter((r) => r.reason === 'backtest').map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['refund', 'spend']);
    assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 10);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
    await third.stop();
  });

  it("an uploaded file's candles travel with the job: the worker stores the workbook and the chart's candles", async () => {
    const user = await funded(t, 10);
    const runner = await plainWorker();
    const form = new FormData();
    for (const [k, v] of Object.entries({ strategy: 'fvg_pullback_multi', sl_pips: '10', tp1_pips: '10', tp2_pips: '20', symbol: 'eurusd', timeframe: 'H1', params_json: '{}' })) form.append(k, v);
    form.append('csv_file', new Blob([fixture('official/EURUSD_H1_custom-upload.csv')]), 'eurusd.csv');
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.folder, 'EURUSD_H1_fvg_pullback_multi_20170419-20170421_sl10');
    assert.equal((await job(res.body.run_id)).processedBy?.endsWith(runner.name), true);
    const folder = join(dataDir, 'files', 'results', String(user.id), res.body.folder);
    assert.ok(existsSync(join(folder, `${res.body.folder}.xlsx`)) && existsSync(join(folder, 'candles.arrow')));
    const chart = await t.request('GET', `/api/user/backtests/chart?folder=${encodeURIComponent(res.body.folder)}`, { key: user.key });
    assert.equal(chart.status, 200, chart.text);
  });

  it("a personal strategy: signals from the API's sandbox travel with the job, the worker's engine runs them", async () => {
    const user = await funded(t, 10);
    const runner = await plainWorker();
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py', { sl_mode: 'internal' });
    assert.equal(imported.status, 201, imported.text);
    const res = await runBacktest(t, user.key, { strategy: imported.body.strategy.id, sl_pips: '', tp1_pips: '', tp2_pips: '', params: { lookback: '20' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.folder, 'EURUSD_M15_breakout_20230101-20230131_sl0');
    assert.equal(res.body.user_strategy_id, imported.body.strategy.id);
    assert.ok(res.body.summary.trades > 10);
    assert.ok(res.body.timing.sandbox_ms > 0);
    assert.equal((await job(res.body.run_id)).processedBy?.endsWith(runner.name), true);
  });

  it('a parameter the engine refuses on the worker is the same 400 as in-process, refunded', async () => {
    const user = await funded(t, 10);
    await plainWorker();
    const res = await runBacktest(t, user.key, { strategy: 'fvg_pullback_multi_rsi', start_date: '2023-01-02', end_date: '2023-01-03', params: { rsi_key: 1e308 } });
    assert.equal(res.status, 400, res.text);
    assert.ok(typeof res.body.detail === 'string' && res.body.detail.length > 0);
    assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 10);
  });
});
