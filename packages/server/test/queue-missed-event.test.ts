// A job that finished while its API did not hear the end (docs/queue.md, "Redis memory": an API's
// QueueEvents that falls behind the event stream's length misses a job's end). At the wait's bound
// the API reads the job before giving it up: a finished backtest answers its result (charged once,
// stored), a finished extraction its file (charged once). The API used to remove the job first,
// which deleted the finished job with its answer: a stored backtest was answered 503 « Le backtest
// est terminé … », a written extraction 503 and left unowned. Here the API's QueueEvents is closed
// so that no end reaches it, and a real bt-worker runs the jobs. The two tests run at once (two
// jobs at once on the worker): each waits the whole bound whatever it does, so together they wait
// one bound instead of two.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { QueueEvents } from 'bullmq';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-missed-${process.pid}-${randomBytes(3).toString('hex')}`;

describe("a finished job whose end the API did not hear", { concurrency: true }, () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;
  let worker: WorkerProcess;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-missed-'));
    // The worker's start (seconds of tsx) beside the app's: the database is migrated already.
    [t, worker] = await Promise.all([
      startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 5000 } }),
      startWorkerProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, REDIS_URL: SHARED_REDIS, QUEUE_PREFIX: PREFIX, WORKER_CONCURRENCY: '2', ENGINE_THREADS: '1' }),
    ]);
    // The API's event reader stops: no job's end reaches its waits any more.
    const runner = t.app.services.backtests.runner as unknown as { opened: Promise<{ events: QueueEvents }> };
    await (await runner.opened).events.close();
  });

  after(async () => {
    await worker?.stop();
    await t?.close();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a backtest: answered with its result at the bound, charged once, stored', { timeout: 60_000 }, async () => {
    const user = await funded(t, 10);
    const res = await runBacktest(t, user.key);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.credits_remaining, 8);
    assert.equal(await balance(t, user.id), 8);
    assert.deepEqual((await ledgerRows(t, user.id)).filter((r) => r.reason === 'backtest').map((r) => r.kind), ['spend']);
    assert.equal((await t.request('GET', res.body.download_url, { key: user.key })).status, 200);
  });

  it('an extraction: answered with its file at the bound, charged once', { timeout: 60_000 }, async () => {
    const user = await funded(t, 1);
    const res = await t.request('GET', '/api/extract_to_output_live?symbol=EURUSD&timeframe=M15&start_date=2023-01-02&end_date=2023-01-31', { key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.charged, true);
    assert.equal(await balance(t, user.id), 0);
    const [file] = res.body.files;
    assert.equal((await t.request('GET', `/api/download_owned_csv_by_path/${file.path}`, { key: user.key })).status, 200);
  });
});
