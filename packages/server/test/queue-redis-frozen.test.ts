// Redis that stops answering without closing its connections (a partition that drops packets, a
// server frozen by a fork or a long command): docs/queue.md, "Failures", promises a 503 when no
// answer comes within JOB_TIMEOUT_MS, and the run refunded. A private redis-server is paused
// (SIGSTOP) while a backtest and an extraction wait for their jobs (no worker listens): each
// request must end, clean, soon after its bound — not wait for Redis to come back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXTRACTION_MESSAGES, JOB_MESSAGES } from '../src/jobs/messages.js';
import { startTestApp, type TestApp, type TestResponse } from './support/app.js';
import { openTestDatabase, type TestDatabase } from './support/db.js';
import { startPrivateRedis, waitFor, type PrivateRedis } from './support/redis.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const TIMEOUT_MS = 1500;

describe('a request waiting for its job while Redis stops answering', () => {
  let database: TestDatabase;
  let redis: PrivateRedis;
  let t: TestApp;
  let backtestUser: Awaited<ReturnType<typeof funded>>;
  let extractionUser: Awaited<ReturnType<typeof funded>>;
  /** Both requests' answers (null: none within the guard) and their times, once both ended. */
  let answers: Promise<{ res: TestResponse | null; elapsed: number }[]>;

  before(async () => {
    database = await openTestDatabase();
    redis = await startPrivateRedis();
    t = await startTestApp(database.db, { library: true, queue: { url: redis.url, prefix: 'bt', timeoutMs: TIMEOUT_MS } });
    // A backtest and an extraction wait for their jobs together, through one freeze: each answer
    // is bounded on its own (its wait, then its Redis commands' timeouts), so one frozen period
    // proves both, in the time of one.
    backtestUser = await funded(t, 10);
    extractionUser = await funded(t, 1);
    const started = Date.now();
    const calls = [
      runBacktest(t, backtestUser.key),
      t.request('GET', '/api/extract_to_output_live?symbol=EURUSD&timeframe=M15&start_date=2023-01-02&end_date=2023-01-31', { key: extractionUser.key }),
    ];
    await waitFor(async () => (await depth()) === 2, 'both jobs waiting in Redis');
    redis.pause();
    // A hang guard: the answer comes a moment after TIMEOUT_MS, the bug was none at all; 30 s more
    // leaves a loaded machine its slowness and stays within the test's 60 s.
    // Its timer is cleared once the answer came: left running, it kept the file's process alive
    // 30 s after its last test.
    const guard = async (call: Promise<TestResponse>) => {
      let timer: NodeJS.Timeout | undefined;
      const res = await Promise.race([call, new Promise<null>((r) => (timer = setTimeout(() => r(null), TIMEOUT_MS + 30_000)))]);
      clearTimeout(timer);
      return { res, elapsed: Date.now() - started };
    };
    answers = Promise.all(calls.map(guard)).finally(() => redis.resume());
  });

  after(async () => {
    redis?.resume();
    await t?.close();
    await redis?.stop();
    await database?.drop();
  });

  const depth = () => t.app.services.backtests.runner.queueDepth();

  it('a backtest: 503 with its detail a few seconds after JOB_TIMEOUT_MS, refunded once, the run gone', { timeout: 60_000 }, async () => {
    const [{ res, elapsed }] = await answers;
    assert.ok(res, `no answer ${elapsed} ms after the request while Redis was frozen`);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.detail, JOB_MESSAGES.timeout);
    assert.equal(await balance(t, backtestUser.id), 10);
    const kinds = (await ledgerRows(t, backtestUser.id)).filter((r) => r.reason === 'backtest').map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['refund', 'spend']);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: backtestUser.id } }), 0);
  });

  it('an extraction: 503 with its detail, nothing charged', { timeout: 60_000 }, async () => {
    const [, { res, elapsed }] = await answers;
    assert.ok(res, `no answer ${elapsed} ms after the request while Redis was frozen`);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.detail, EXTRACTION_MESSAGES.timeout);
    assert.equal(await balance(t, extractionUser.id), 1);
  });
});
