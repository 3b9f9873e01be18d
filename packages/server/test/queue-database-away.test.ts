// The database gone while a request waits for its queued job (docs/queue.md, "Failures": the
// database away → 503 « Base de données indisponible. », refunded then or by the sweep). When the
// API gives the run up it cannot write the refund; its answer must not say « Aucun crédit n’a été
// débité » then: the charge stands until the sweep gives it back. MariaDB sits behind a TCP relay
// the test cuts (connections dropped, new ones refused) and restores.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { migrate, openDatabase, type Database } from '../src/db/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, createTestDatabaseUrl } from './support/db.js';
import { SHARED_REDIS, deleteKeys, waitFor } from './support/redis.js';
import { startTcpRelay, type TcpRelay } from './support/tcp-relay.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-dbaway-${process.pid}-${randomBytes(3).toString('hex')}`;

describe('a queued run given up while the database is away', { skip: TEST_DIALECT === 'mysql' ? false : 'a MariaDB behind a relay: runs in the MariaDB pass' }, () => {
  let created: { url: string; drop(): Promise<void> };
  let relay: TcpRelay;
  let db: Database;
  let t: TestApp;

  before(async () => {
    created = await createTestDatabaseUrl('mysql');
    const direct = await openDatabase(created.url, { dataDir: tmpdir() });
    await migrate(direct.sequelize);
    await direct.close();
    const target = new URL(created.url);
    relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 3306) });
    target.port = String(relay.port);
    db = await openDatabase(target.toString(), { dataDir: tmpdir() });
    // No worker listens: the job waits until the request's bound.
    t = await startTestApp(db, { library: true, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 1500 } });
  });

  after(async () => {
    await relay?.restore().catch(() => undefined);
    await t?.close();
    await db?.close();
    await relay?.close();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await created?.drop();
  });

  it('503 « Base de données indisponible. », charged until the sweep refunds it once', { timeout: 60_000 }, async () => {
    const user = await funded(t, 10);
    const call = runBacktest(t, user.key);
    await waitFor(async () => (await t.app.services.backtests.runner.queueDepth()) === 1, 'the job waiting in Redis');
    await relay.cut();
    const res = await call;
    await relay.restore();
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.detail, 'Base de données indisponible.');
    assert.doesNotMatch(res.body.detail, /Aucun crédit/);
    assert.equal(await balance(t, user.id), 8, 'the charge stands: the refund could not be written');
    // The sweep gives it back, once (Sequelize stamps created_at with the real time).
    t.clock.advance(Date.now() - t.clock.now().getTime() + 60_000);
    assert.equal(await t.app.services.backtests.sweepStale(0), 1);
    assert.equal(await t.app.services.backtests.sweepStale(0), 0);
    assert.equal(await balance(t, user.id), 10);
    const kinds = (await ledgerRows(t, user.id)).filter((r) => r.reason === 'backtest').map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['refund', 'spend']);
  });
});
