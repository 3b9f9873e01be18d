// A queued backtest whose worker cannot store the workbook (a full disk, a folder it cannot make,
// the bucket refusing the write): docs/queue.md, "Failures" — the job fails, the run is refunded
// once and the client gets 503 « Le calcul du backtest a échoué. Aucun crédit n’a été débité. ».
// The run was marked done alongside the failed write, so the failure's cancel found it done: the
// user was charged for a result whose workbook never existed, and told to look for it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JOB_MESSAGES } from '../src/jobs/messages.js';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-store-${process.pid}-${randomBytes(3).toString('hex')}`;

describe('a queued backtest whose workbook the storage refuses', () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;
  let worker: WorkerProcess;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-store-'));
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 30_000 } });
    worker = await startWorkerProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, REDIS_URL: SHARED_REDIS, QUEUE_PREFIX: PREFIX, WORKER_CONCURRENCY: '1', ENGINE_THREADS: '1' });
  });

  after(async () => {
    await worker?.stop();
    await t?.close();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('503 saying no credit was taken, refunded once, no run left in the list', { timeout: 60_000 }, async () => {
    const user = await funded(t, 10);
    // The user's results folder is a file: the worker cannot make the workbook's folder under it.
    mkdirSync(join(dataDir, 'files', 'results'), { recursive: true });
    writeFileSync(join(dataDir, 'files', 'results', String(user.id)), 'not a folder');
    const res = await runBacktest(t, user.key);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.detail, JOB_MESSAGES.failed);
    assert.equal(await balance(t, user.id), 10);
    const kinds = (await ledgerRows(t, user.id)).filter((r) => r.reason === 'backtest').map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['refund', 'spend']);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
    const listed = await t.request('GET', '/api/user/backtests', { key: user.key });
    assert.equal(listed.status, 200);
    assert.deepEqual([listed.body.items, listed.body.total], [[], 0]);
  });
});
