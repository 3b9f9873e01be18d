// Backtests and extractions through the Redis job queue (docs/queue.md), against the machine's
// Redis (a queue prefix of this run's own, its keys deleted at the end) and real bt-worker
// processes: two workers share the jobs, Pro subscribers' jobs come first, a worker killed mid-job
// leaves its job retried once and the credits exact; an extraction's file is written by a worker,
// and charged only once it exists.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { EXTRACTION_MESSAGES } from '../src/jobs/messages.js';
import { BACKTEST_QUEUE, PRIORITY } from '../src/jobs/queue.js';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys, startPrivateRedis, waitFor } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { balance, BREAKOUT_PY, fixture, funded, importStrategy, ledgerRows, OFFICIAL_RUN, runBacktest } from './support/work.js';

const PREFIX = `bt-test-${process.pid}-${randomBytes(3).toString('hex')}`;
const LOCK_MS = 1000;
/** A hold the test ends (SIGUSR2, src/jobs/test-hold.ts) when its turn comes; the bound only ends one a failed test left. */
const HOLD_MS = 60_000;
/** The late extraction's queue (no other worker there). */
const LATE_PREFIX = `${PREFIX}:late`;

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
  // One plain worker shared by the last tests (each start costs seconds of tsx): the one that
  // fails the job whose workers died twice, kept for the tests after it.
  let plain: WorkerProcess | undefined;
  const plainWorker = async () => (plain ??= await worker());
  /** A worker holding each job until released; the survivor of the killed-worker test serves the next one. */
  const heldWorker = () => worker({ BT_TEST_JOB_HOLD_MS: String(HOLD_MS) });
  let spare: WorkerProcess | undefined;
  /** The worker of `pool` holding job `id`, once one says so. */
  const holder = async (pool: WorkerProcess[], id: string) => {
    let found: WorkerProcess | undefined;
    await waitFor(() => Boolean((found = pool.find((w) => w.output().includes(`test hold of job ${id} `)))), `job ${id} held`, 60_000);
    return found!;
  };
  const activeJob = async () => {
    await waitFor(async () => (await queue.getActiveCount()) === 1, 'a job taken');
    return (await queue.getJobs(['active']))[0]!;
  };
  /** The late extraction test's worker, on a queue of its own: started in `before`, beside the first tests. */
  let slowStarting: Promise<WorkerProcess> | undefined;
  const depth = () => t.app.services.backtests.runner.queueDepth();
  const job = async (runId: string) => (await queue.getJob(runId))!;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-data-'));
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 30_000 } });
    redis = new Redis(SHARED_REDIS, { maxRetriesPerRequest: null });
    queue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix: PREFIX });
    slowStarting = worker({ QUEUE_PREFIX: LATE_PREFIX, BT_TEST_JOB_HOLD_MS: '2500' });
    slowStarting.catch(() => undefined);
  });

  after(async () => {
    await slowStarting?.catch(() => undefined);
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
    // Two workers, started together; each holds a job 300 ms, so neither takes them all.
    const [a, b] = await Promise.all([worker({ BT_TEST_JOB_HOLD_MS: '300' }), worker({ BT_TEST_JOB_HOLD_MS: '300' })]);
    const answers = await Promise.all([...standardCalls, ...proCalls]);
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const started = async (runIds: string[]) => Promise.all(runIds.map(async (id) => (await job(id)).processedOn!));
    const standardStarts = await started(answers.slice(0, 3).map((r) => r.body.run_id));
    const proStarts = await started(answers.slice(3).map((r) => r.body.run_id));
    assert.ok(Math.max(...proStarts) <= Math.min(...standardStarts), `Pro jobs first: pro ${proStarts}, standard ${standardStarts}`);

    // An official run's job carries the library months the API read: the worker reads those files.
    const months = (await job(answers[0].body.run_id)).data.months;
    assert.ok(Array.isArray(months) && months.length > 0 && months.every((m: { path: string; ipcPath: string }) => m.path.startsWith('EURUSD/') && m.ipcPath.endsWith('.arrow')), JSON.stringify(months));

    // The same answer as in-process: the workbook is where the answer says, and downloads.
    const file = await t.request('GET', answers[0].body.download_url, { key: standard.key });
    assert.equal(file.status, 200);

    // The next burst is shared by the two workers.
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
    // Two workers started together, both holding each job: the one that takes it is killed, the
    // other finds the job's lock expired (WORKER_LOCK_MS) and runs it again once released.
    const pool = await Promise.all([heldWorker(), heldWorker()]);
    const call = runBacktest(t, user.key);
    const id = (await activeJob()).id!;
    const doomed = await holder(pool, id);
    await doomed.kill();
    const survivor = await holder(pool.filter((w) => w !== doomed), id);
    process.kill(survivor.pid, 'SIGUSR2');
    const res = await call;
    assert.equal(res.status, 200, res.text);
    const ran = await job(res.body.run_id);
    assert.equal(ran.stalledCounter, 1);
    assert.ok(ran.processedBy?.endsWith(survivor.name), `retried by the survivor: ${ran.processedBy}`);
    const rows = await ledgerRows(t, user.id);
    assert.deepEqual(rows.filter((r) => r.reference === res.body.run_id).map((r) => [r.kind, r.amount]), [['spend', -2]]);
    assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 8);
    assert.equal(res.body.credits_remaining, 8);
    spare = survivor;
  });

  it('a job whose workers die twice fails: the run is refunded once and answered 503 with a detail', async () => {
    const user = await funded(t, 10);
    const pool = await Promise.all([spare ?? heldWorker(), heldWorker()]);
    const call = runBacktest(t, user.key, OFFICIAL_RUN);
    const id = (await activeJob()).id!;
    const first = await holder(pool, id);
    await first.kill();
    const second = await holder(pool.filter((w) => w !== first), id);
    assert.ok((await job(id)).processedBy?.endsWith(second.name), 'the job retried by the second worker');
    await second.kill();
    // A third worker's stalled-job check fails the job (stalled twice); it stays for the next tests.
    await plainWorker();
    const res = await call;
    assert.equal(res.status, 503, res.text);
    assert.match(res.body.detail, /Aucun crédit n’a été débité/);
    const rows = await ledgerRows(t, user.id);
    const kinds = rows.filter((r) => r.reason === 'backtest').map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['refund', 'spend']);
    assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 10);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
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
    // Once finished, the job keeps its answer but not the file's candles (docs/queue.md, "Redis memory").
    await waitFor(async () => (await job(res.body.run_id)).data.candles === null, 'the finished job without its candles', 10_000);
    const finished = await job(res.body.run_id);
    assert.equal(finished.returnvalue.result.folder, res.body.folder);
    assert.equal(finished.data.request.strategy, 'fvg_pullback_multi');
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
    // Once finished, the job keeps its answer but not the signals (docs/queue.md, "Redis memory").
    await waitFor(async () => (await job(res.body.run_id)).data.request.strategy.signals.index === '', 'the finished job without its signals', 10_000);
    const finished = await job(res.body.run_id);
    assert.ok(finished.data.request.strategy.label && finished.data.request.strategy.shape, 'the rest of the request kept');
    assert.equal(finished.returnvalue.result.folder, res.body.folder);
  });

  it('a parameter the engine refuses on the worker is the same 400 as in-process, refunded', async () => {
    const user = await funded(t, 10);
    await plainWorker();
    const res = await runBacktest(t, user.key, { strategy: 'fvg_pullback_multi_rsi', start_date: '2023-01-02', end_date: '2023-01-03', params: { rsi_key: 1e308 } });
    assert.equal(res.status, 400, res.text);
    assert.ok(typeof res.body.detail === 'string' && res.body.detail.length > 0);
    assert.equal((await t.db.models.User.findByPk(user.id))!.credits, 10);
  });

  const EXTRACTION = 'symbol=EURUSD&timeframe=M15&start_date=2023-01-02&end_date=2023-02-28';
  const EXTRACTED = 'EURUSD_M15_20230102_to_20230228.csv';
  const extract = (app: TestApp, key: string, query = EXTRACTION) => app.request('GET', `/api/extract_to_output_live?${query}`, { key });
  const extractionJobs = async (q: Queue, userId: number, states: ('completed' | 'failed' | 'active' | 'wait' | 'prioritized')[] = ['completed']) =>
    (await q.getJobs(states)).filter((j) => j.name === 'extraction' && j.data.userId === userId);

  it("an extraction is a worker's job: the file it writes is embedded mode's, charged once (parallel twins too), the same range again free", async () => {
    const runner = await plainWorker();
    const user = await funded(t, 2);
    // Two identical requests at once: two jobs, one file, one credit.
    const [a, b] = await Promise.all([extract(t, user.key), extract(t, user.key)]);
    for (const res of [a, b]) assert.equal(res.status, 200, res.text);
    assert.deepEqual([a.body.charged, b.body.charged].sort(), [false, true]);
    const jobs = await extractionJobs(queue, user.id);
    assert.equal(jobs.length, 2);
    for (const j of jobs) {
      assert.ok(j.processedBy?.endsWith(runner.name), `run by the worker: ${j.processedBy}`);
      assert.equal(j.opts.priority, PRIORITY.standard);
    }
    const [file] = a.body.files;
    assert.equal(file.filename, EXTRACTED);
    const again = await extract(t, user.key);
    assert.deepEqual([again.status, again.body.charged, again.body.credits_remaining], [200, false, 1]);
    assert.equal((await extractionJobs(queue, user.id)).length, 2, 'an owned range is answered without a job');
    const spends = (await ledgerRows(t, user.id)).filter((r) => r.kind === 'spend');
    assert.deepEqual(spends.map((r) => [r.reason, r.amount, r.reference]), [['extraction', -1, `extraction:${user.id}:${EXTRACTED}`]]);
    assert.equal(await balance(t, user.id), 1);
    const queued = await t.request('GET', `/api/download_owned_csv_by_path/${file.path}`, { key: user.key });
    assert.equal(queued.status, 200);
    assert.equal(queued.text.split('\n').length - 2, file.rows);
    assert.ok(file.rows > 2000, `two months of M15: ${file.rows}`);

    // The same range cut by an app in embedded mode (engine threads in the API, its own files).
    const embedded = await startTestApp(database.db, { library: true });
    try {
      const other = await funded(embedded, 1);
      const res = await extract(embedded, other.key);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.files[0].rows, file.rows);
      const local = await embedded.request('GET', `/api/download_owned_csv_by_path/${res.body.files[0].path}`, { key: other.key });
      assert.equal(local.text, queued.text);
      assert.equal(res.body.files[0].size, file.size);
    } finally {
      await embedded.close();
    }

    // A Pro subscriber's extraction goes first, as their backtests do.
    const pro = await funded(t, 1);
    await t.db.models.User.update({ plan: 'SUB_25', subscriptionRenewDate: new Date('2026-02-15T00:00:00Z'), backtestPriority: true }, { where: { id: pro.id } });
    assert.equal((await extract(t, pro.key, 'symbol=EURUSD&timeframe=H1&start_date=2023-01-02&end_date=2023-01-06')).status, 200);
    assert.deepEqual((await extractionJobs(queue, pro.id)).map((j) => j.opts.priority), [PRIORITY.pro]);
    // No candle in the range: the worker says so, the API answers 404, nothing charged.
    const empty = await extract(t, pro.key, 'symbol=EURUSD&timeframe=H1&start_date=2024-01-02&end_date=2024-01-06');
    assert.deepEqual([empty.status, empty.body.detail], [404, 'Aucune donnée pour EURUSD H1 du 2024-01-02 au 2024-01-06.']);
    assert.equal(await balance(t, pro.id), 0);
  });

  it('an extraction nobody answers in time (no worker): 503 at JOB_TIMEOUT_MS, no credit taken, no file, the job out of the queue', { timeout: 60_000 }, async () => {
    // An API on a queue of its own (no worker listens there), with a short wait.
    const prefix = `${PREFIX}:idle`;
    const idle = await startTestApp(database.db, { queue: { url: SHARED_REDIS, prefix, timeoutMs: 1500 } });
    const idleQueue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix });
    try {
      const user = await funded(idle, 1);
      const res = await extract(idle, user.key);
      assert.deepEqual([res.status, res.body.detail], [503, EXTRACTION_MESSAGES.timeout]);
      assert.equal(await balance(idle, user.id), 1);
      assert.equal((await ledgerRows(idle, user.id)).filter((r) => r.kind === 'spend').length, 0);
      assert.equal(await idle.db.models.UserCsv.count({ where: { userId: user.id } }), 0);
      assert.deepEqual(await idle.app.deps.storage.list(`extractions/${user.id}`), []);
      assert.equal((await extractionJobs(idleQueue, user.id, ['wait', 'prioritized', 'active', 'completed', 'failed'])).length, 0, 'removed from the queue');
    } finally {
      await idleQueue.close();
      await idle.close();
    }
  });

  it('an extraction whose worker finishes past the deadline writes no file: the API has answered 503 and charged nothing', { timeout: 60_000 }, async () => {
    const prefix = LATE_PREFIX;
    const slow = await slowStarting!;
    const late = await startTestApp(database.db, { queue: { url: SHARED_REDIS, prefix, timeoutMs: 1500 } });
    const lateQueue = new Queue(BACKTEST_QUEUE, { connection: redis, prefix });
    try {
      const user = await funded(late, 1);
      const res = await extract(late, user.key);
      assert.deepEqual([res.status, res.body.detail], [503, EXTRACTION_MESSAGES.timeout]);
      await waitFor(async () => (await extractionJobs(lateQueue, user.id, ['failed'])).length === 1, 'the late job failed on the worker');
      const [failed] = await extractionJobs(lateQueue, user.id, ['failed']);
      assert.match(failed.failedReason, /expired before its file was written/);
      assert.ok(failed.processedBy?.endsWith(slow.name));
      // The worker writes into the shared data directory's storage.
      assert.equal(existsSync(join(dataDir, 'files', 'extractions', String(user.id))), false);
      assert.equal(await balance(late, user.id), 1);
    } finally {
      await lateQueue.close();
      await late.close();
      await slow.stop();
    }
  });

  it('an extraction while Redis is away: 503 saying no credit was taken', { timeout: 60_000 }, async () => {
    // Down before the API starts: bullmq waits for a first connection, the enqueue's bound answers.
    const own = await startPrivateRedis();
    await own.kill();
    const away = await startTestApp(database.db, { queue: { url: own.url, prefix: PREFIX, timeoutMs: 1500 } });
    try {
      const user = await funded(away, 1);
      const res = await extract(away, user.key);
      assert.deepEqual([res.status, res.body.detail], [503, EXTRACTION_MESSAGES.unavailable]);
      assert.equal(await balance(away, user.id), 1);
      assert.deepEqual(await away.app.deps.storage.list(`extractions/${user.id}`), []);
    } finally {
      // Back before the app closes: bullmq's close waits for a connection (main.ts bounds it).
      await own.restart();
      await away.close();
      await own.stop();
    }
  });
});
