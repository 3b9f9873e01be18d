/**
 * bt-worker: runs queued backtests and extractions (docs/queue.md). Same environment as the
 * server (DATABASE_URL, DATA_DIR, ...) plus REDIS_URL; start any number of them, on any machine that reaches the
 * database, Redis and the storage: `npm run worker -w @bt/server` (or `node dist/worker.js`).
 * SIGTERM/SIGINT: no new job; running jobs finish, then the process exits.
 */
import { hostname } from 'node:os';
import process from 'node:process';
import { systemClock } from './clock/index.js';
import { readEnv } from './config/env.js';
import { CreditLedger } from './credits/ledger.js';
import { DatasetStore } from './datasets/store.js';
import { migrator, openDatabase, parseDatabaseUrl } from './db/index.js';
import { checkDataDir } from './config/startup-checks.js';
import { EventLog } from './events/log.js';
import { readJobsEnv } from './jobs/env.js';
import { EnginePool } from './jobs/pool.js';
import { BacktestWorker } from './jobs/worker.js';
import { readOpsEnv } from './config/ops-env.js';
import { createLogger, logFunction } from './logging/logger.js';
import { handleStopSignals, StartStop, StopDuringStart, testStartHold } from './app/start-stop.js';
import type { Database } from './db/index.js';
import { openStorages, readS3Env } from './storage/index.js';

// Workers log as the API servers do (JSON lines, LOG_LEVEL/LOG_FORMAT: docs/deployment.md).
const ops = readOpsEnv(process.env);
const log = logFunction(createLogger({ level: ops.logLevel, format: ops.logFormat, base: { hostname: hostname(), role: 'worker' } }));

// A SIGTERM during the start stops it between two steps, the database closed (app/start-stop.ts).
const start = new StartStop();
const signals = handleStopSignals(start, log, 'bt-worker');
let opened: Database | null = null;

async function main(): Promise<void> {
  const env = readEnv();
  const jobs = readJobsEnv();
  if (!jobs.url) throw new Error('REDIS_URL is not set: bt-worker takes its jobs from the Redis queue (docs/queue.md)');
  const s3 = readS3Env(process.env);
  // As the server (config/startup-checks.ts): a DATA_DIR it cannot use is named before anything opens.
  if (parseDatabaseUrl(env.databaseUrl, env.dataDir).dialect === 'sqlite' || !s3) checkDataDir(env.dataDir);
  const db = await openDatabase(env.databaseUrl, { dataDir: env.dataDir, poolMax: env.dbPoolMax });
  opened = db;
  await testStartHold(start, log, 'bt-worker')?.('the database opened');
  start.check();
  // The server migrates; a worker never runs against a schema it does not know.
  const pending = await migrator(db.sequelize).pending();
  if (pending.length) throw new Error(`${pending.length} pending migration(s): start the server (or 'main.ts migrate') first`);
  // The same storage as the API servers (local DATA_DIR or the S3 bucket): they read what it writes.
  const { storage, library, description } = await openStorages(env.dataDir, s3);
  start.check();
  log(`bt-worker: files: ${description}`);
  const events = new EventLog(db, systemClock, log);
  const ledger = new CreditLedger(db, (entry, t) => events.fromLedger(entry, t));
  const datasets = new DatasetStore(db, library, log);
  const pool = new EnginePool(jobs.engineThreads);
  // A worker exists to run jobs: its threads load the engine now, not during its first job.
  pool.warm();
  const worker = new BacktestWorker({ url: jobs.url, ...jobs.worker }, { db, storage, datasets, ledger, events, clock: systemClock, pool, log });
  worker.start();
  log(`bt-worker: ready (pid ${process.pid}, queue prefix ${jobs.worker.prefix}, ${jobs.worker.concurrency} job(s) at once, database ${db.dialect})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`bt-worker: ${signal} received, finishing running jobs`);
    worker
      .close()
      .then(() => pool.close())
      .then(() => db.close())
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 60_000).unref?.();
  };
  signals.running(stop);
  if (start.asked) stop(start.asked);
}

main().catch(async (err) => {
  if (err instanceof StopDuringStart) {
    await opened?.close().catch(() => {});
    log(`bt-worker: stopped during the start (${err.signal})`);
    process.exit(0);
  }
  log(`bt-worker: failed: ${(err as Error).message}`);
  process.exit(1);
});
