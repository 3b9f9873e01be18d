// Outages under load (docs/queue.md, "Failures"): a private Redis killed and restarted while
// clients send backtests through the queue, then a private MariaDB killed and restarted the same
// way. Every answer is a 200 or a clean 503 with a French detail (never a 500), the service comes
// back by itself, and the credits add up: every charge is a stored result or refunded once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { migrate, openDatabase, type Database } from '../src/db/index.js';
import { startTestApp, type TestApp, type TestResponse } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { startPrivateMariaDb, type PrivateMariaDb } from './support/mariadb.js';
import { startPrivateRedis, waitFor, type PrivateRedis } from './support/redis.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';
import { funded, runBacktest } from './support/work.js';

interface Load {
  answers: { at: number; res: TestResponse | null; error?: string }[];
  stop(): Promise<void>;
  /** 200s received after `since`. */
  okSince(since: number): number;
  /**
   * Until the traffic has met an outage that began at `since`: as many 503s answered since then
   * as there are clients (the outage lasts until the clients see it, not a fixed time).
   */
  outageMet(since: number): Promise<void>;
}

/** `clients` loops sending backtests one after the other until stopped. */
function load(t: TestApp, key: string, clients: number): Load {
  const answers: Load['answers'] = [];
  let running = true;
  const loop = async (client: number) => {
    for (let i = 0; running; i++) {
      try {
        answers.push({ at: Date.now(), res: await runBacktest(t, key, { sl_pips: 10 + ((client * 7 + i) % 20) }) });
      } catch (err) {
        answers.push({ at: Date.now(), res: null, error: (err as Error).message });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const loops = Array.from({ length: clients }, (_, c) => loop(c));
  return {
    answers,
    okSince: (since) => answers.filter((a) => a.at >= since && a.res?.status === 200).length,
    outageMet: (since) => waitFor(() => answers.filter((a) => a.at >= since && a.res?.status === 503).length >= clients, 'the clients meet the outage'),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

function assertClean(answers: Load['answers']): void {
  const statuses = new Map<number, number>();
  for (const { res, error } of answers) {
    assert.ok(res, `every request answered (${error})`);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    assert.ok(res.status === 200 || res.status === 503, `200 or 503, got ${res.status}: ${res.text.slice(0, 300)}`);
    if (res.status === 503) assert.ok(typeof res.body?.detail === 'string' && res.body.detail.length > 0, res.text);
  }
  assert.ok((statuses.get(503) ?? 0) > 0, `the outage was seen: ${JSON.stringify([...statuses])}`);
}

/** Every charge of the user is either a stored run or refunded once; the balance agrees. */
async function assertCreditsExact(db: Database, userId: number, initial: number): Promise<void> {
  const { CreditEntry, BacktestRun, User } = db.models;
  const entries = await CreditEntry.findAll({ where: { userId, reason: 'backtest' } });
  const spends = entries.filter((e) => e.kind === 'spend');
  const refunds = entries.filter((e) => e.kind === 'refund');
  const runs = await BacktestRun.findAll({ where: { userId } });
  const left = runs.filter((r) => r.status !== 'done');
  assert.equal(left.length, 0, `no run left running: ${JSON.stringify(left.map((r) => [r.runId, r.status, r.createdAt]))}`);
  const refunded = new Set(refunds.map((r) => r.reference));
  assert.equal(refunded.size, refunds.length, 'no run refunded twice');
  const done = new Set(runs.map((r) => r.runId));
  for (const spend of spends) assert.ok(done.has(spend.reference!) !== refunded.has(spend.reference!), `run ${spend.reference}: a result or a refund, exactly one`);
  assert.equal((await User.findByPk(userId))!.credits, initial - 2 * runs.length);
}

// Its databases are its own (a SQLite file, a private MariaDB): once per CI run, in the SQLite pass.
describe('outages under load', { skip: TEST_DIALECT === 'mysql' ? 'runs in the SQLite pass' : false }, () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
  });

  it('Redis killed and restarted: 503s with a detail while it is away, then backtests again; credits exact', async () => {
    const redis: PrivateRedis = await startPrivateRedis();
    cleanups.push(() => redis.stop());
    await redis.kill();
    const dir = mkdtempSync(join(tmpdir(), 'bt-redis-fault-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = await openDatabase(`sqlite:${join(dir, 'bt.sqlite')}`, { dataDir: dir });
    await migrate(db.sequelize);
    cleanups.push(() => db.close());
    // The worker process starts (seconds) while the API starts and waits out the enqueue's bound.
    const worker: Promise<WorkerProcess> = startWorkerProcess({ DATABASE_URL: `sqlite:${join(dir, 'bt.sqlite')}`, DATA_DIR: dir, REDIS_URL: redis.url, QUEUE_PREFIX: 'bt', WORKER_LOCK_MS: '1000', WORKER_CONCURRENCY: '2', ENGINE_THREADS: '1' });
    cleanups.push(async () => (await worker.catch(() => null))?.stop());
    const t = await startTestApp(db, { library: true, dataDir: dir, queue: { url: redis.url, prefix: 'bt', timeoutMs: 4000 } });
    cleanups.push(() => t.close());
    const user = await funded(t, 1000);

    // Redis away since the API started (never reached): a 503 after the enqueue's bound, not a hang.
    const never = await runBacktest(t, user.key);
    assert.equal(never.status, 503, never.text);
    assert.match(never.body.detail, /momentanément indisponible/);
    await worker;
    await redis.restart();

    const traffic = load(t, user.key, 3);
    await waitFor(() => traffic.okSince(0) >= 4, 'backtests through the queue');
    const away = Date.now();
    await redis.kill();
    await traffic.outageMet(away);
    await redis.restart();
    const back = Date.now();
    await waitFor(() => traffic.okSince(back) >= 4, 'backtests again after the restart', 40_000);
    await traffic.stop();

    assertClean(traffic.answers);
    // Runs whose jobs Redis lost were given up at their wait's end (JOB_TIMEOUT_MS), refunded.
    await assertCreditsExact(t.db, user.id, 1000);
  });

  it('MariaDB killed and restarted: 503s with a detail while it is away, then backtests again; credits exact', async () => {
    let mariadb: PrivateMariaDb;
    try {
      mariadb = await startPrivateMariaDb();
    } catch (err) {
      assert.fail(`a private MariaDB could not start here: ${(err as Error).message}`);
    }
    cleanups.push(() => mariadb.stop());
    const db = await openDatabase(mariadb.url, { dataDir: tmpdir(), poolMax: 5 });
    await migrate(db.sequelize);
    cleanups.push(() => db.close());
    // Embedded mode (worker threads): the API itself meets the outage.
    const t = await startTestApp(db, { library: true });
    cleanups.push(() => t.close());
    const user = await funded(t, 1000);

    const traffic = load(t, user.key, 3);
    await waitFor(() => traffic.okSince(0) >= 4, 'backtests on MariaDB');
    const away = Date.now();
    await mariadb.kill();
    await traffic.outageMet(away);
    await mariadb.restart();
    const back = Date.now();
    await waitFor(() => traffic.okSince(back) >= 4, 'backtests again after the restart', 60_000);
    await traffic.stop();

    assertClean(traffic.answers);
    // A run whose refund met the outage is left 'running' with its charge: the sweep refunds it.
    // (Sequelize stamps created_at with the real time; the test clock starts in January 2026.)
    t.clock.advance(Date.now() - t.clock.now().getTime() + 60_000);
    await t.app.services.backtests.sweepStale(0);
    await assertCreditsExact(t.db, user.id, 1000);
  });
});
