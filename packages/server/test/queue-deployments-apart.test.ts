// Two deployments on one Redis (docs/deployment.md: REDIS_PREFIX "keeps two deployments on one
// Redis apart"): a production and a staging, each with its database, servers and workers, set
// their own REDIS_PREFIX as that page says. The job queue must be theirs too: a staging worker
// that takes a production job finds no run in its own database and throws the run away (the
// production client gets 503 and a refund), or writes an extraction into the wrong storage while
// production charges for a file it does not have.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readJobsEnv } from '../src/jobs/env.js';
import { JOB_MESSAGES } from '../src/jobs/messages.js';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { balance, funded, runBacktest } from './support/work.js';

describe('two deployments on one Redis, each with its REDIS_PREFIX', () => {
  let redis: PrivateRedis;
  let prodDb: TestDatabase;
  let stagingDb: TestDatabase;
  let prodDir: string;
  let prod: TestApp;
  let staging: TestApp;
  let prodWorker: WorkerProcess;

  before(async () => {
    redis = await startPrivateRedis();
    [prodDb, stagingDb] = await Promise.all([openTestDatabase(), openTestDatabase()]);
    prodDir = mkdtempSync(join(tmpdir(), 'bt-prod-'));
    // Each API server's queue settings as main.ts reads them from its environment. Staging's
    // request waits its whole bound (no worker of its own), so a short one; production's ends
    // with its job, so a bound a loaded machine does not reach (3 s timed a production run out
    // at a load average of 15, beside another test file).
    const queueOf = (prefix: string, timeoutMs: number) => readJobsEnv({ REDIS_URL: redis.url, REDIS_PREFIX: prefix, JOB_TIMEOUT_MS: String(timeoutMs) }).queue!;
    prod = await startTestApp(prodDb.db, { library: true, dataDir: prodDir, queue: queueOf('prod:', 30_000) });
    staging = await startTestApp(stagingDb.db, { library: true, queue: queueOf('staging:', 3000) });
    // Production's only worker; staging has none running.
    prodWorker = await startWorkerProcess({ DATABASE_URL: prodDb.url, DATA_DIR: prodDir, REDIS_URL: redis.url, REDIS_PREFIX: 'prod:', WORKER_CONCURRENCY: '1', ENGINE_THREADS: '1' });
  });

  after(async () => {
    await prodWorker?.stop();
    await prod?.close();
    await staging?.close();
    await redis?.stop();
    await prodDb?.drop();
    await stagingDb?.drop();
    rmSync(prodDir, { recursive: true, force: true });
  });

  it("one deployment's worker never takes the other's jobs", { timeout: 90_000 }, async () => {
    const trader = await funded(prod, 10);
    const ran = await runBacktest(prod, trader.key);
    assert.equal(ran.status, 200, ran.text);
    // Staging's job waits for a staging worker; production's worker must leave it alone.
    const tester = await funded(staging, 10);
    const waited = await runBacktest(staging, tester.key);
    assert.equal(waited.status, 503, waited.text);
    assert.equal(waited.body.detail, JOB_MESSAGES.timeout, 'no worker of its own answered it in time');
    assert.equal(await balance(staging, tester.id), 10);
    assert.doesNotMatch(prodWorker.output(), /failed|cancelled/i, prodWorker.output());
  });

  it('the queue prefix follows REDIS_PREFIX unless QUEUE_PREFIX says otherwise', () => {
    const env = (vars: Record<string, string>) => readJobsEnv({ REDIS_URL: 'redis://127.0.0.1:6379', ...vars }).worker.prefix;
    assert.equal(env({}), 'bt');
    assert.equal(env({ REDIS_PREFIX: 'bt:' }), 'bt');
    assert.equal(env({ REDIS_PREFIX: 'bt-prod:' }), 'bt-prod');
    assert.equal(env({ REDIS_PREFIX: 'bt-prod:', QUEUE_PREFIX: 'jobs' }), 'jobs');
  });
});
