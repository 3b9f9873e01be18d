// A run waiting in the Redis job queue (docs/queue.md) when its account is deleted: the deletion
// refunds and removes it (docs/server.md "Deleting an account"); the request that waited for it is
// answered as any request after the deletion, 401, not the queue's « given up » 503.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './support/app.js';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from './support/db.js';
import { SHARED_REDIS, deleteKeys, waitFor } from './support/redis.js';
import { funded, ledgerRows, runBacktest } from './support/work.js';

const PREFIX = `bt-test-del-${process.pid}-${randomBytes(3).toString('hex')}`;

describe(`a queued run whose account is deleted while it waits (${TEST_DIALECT})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let dataDir: string;

  before(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'bt-queue-del-'));
    // No worker: the job waits until the request gives it up (timeoutMs).
    t = await startTestApp(database.db, { library: true, dataDir, queue: { url: SHARED_REDIS, prefix: PREFIX, timeoutMs: 3000 } });
  });

  after(async () => {
    await t?.close();
    await deleteKeys(SHARED_REDIS, `${PREFIX}:*`);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 401 with the key\'s sentence; the charge is refunded once and the run is gone', async () => {
    const user = await funded(t, 10);
    const running = runBacktest(t, user.key);
    await waitFor(async () => (await t.db.models.BacktestRun.count({ where: { userId: user.id, status: 'running' } })) === 1, 'the run charged and queued');
    const deleted = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
    assert.equal(deleted.status, 200, deleted.text);
    const answer = await running;
    assert.deepEqual([answer.status, answer.body.detail], [401, 'Clé API invalide ou expirée.'], answer.text);
    const rows = await ledgerRows(t, user.id);
    const run = rows.filter((r) => r.kind !== 'grant');
    assert.deepEqual(run.map((r) => r.kind), ['spend', 'refund'], JSON.stringify(rows.map((r) => [r.kind, r.reference])));
    assert.equal((await t.db.models.User.findByPk(user.id))?.credits, 10);
    assert.equal(await t.db.models.BacktestRun.count({ where: { userId: user.id } }), 0);
  });
});
