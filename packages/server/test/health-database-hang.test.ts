// Health and readiness when the database hangs rather than refuses (docs/deployment.md, "Health
// and readiness"): a MariaDB behind a network that stops carrying packets (a partition, a server
// frozen mid-failover) never answers, and no driver timeout ends a query already sent. A liveness
// probe waits a second or so: /api/health must answer 503 within its bound, as /api/ready does,
// not hang with the query. The database sits behind a TCP relay of the test's that can freeze.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { migrate, openDatabase, type Database } from '../src/db/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, createTestDatabaseUrl } from './support/db.js';
import { startTcpRelay, type TcpRelay } from './support/tcp-relay.js';

/** A GET that gives up after `ms` (a probe's timeout): null when nothing came back in time. */
async function probe(url: string, ms: number): Promise<{ status: number; body: Record<string, unknown>; ms: number } | null> {
  const started = Date.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ms) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
  } catch {
    return null;
  }
}

describe('health and readiness while the database hangs', { skip: TEST_DIALECT === 'mysql' ? false : 'a MariaDB behind a relay: runs in the MariaDB pass' }, () => {
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
    t = await startTestApp(db);
  });

  after(async () => {
    relay?.thaw();
    await t?.close();
    await db?.close();
    await relay?.close();
    await created?.drop();
  });

  it('/api/health and /api/ready answer 503 within their bound, then 200 once the database answers again', async () => {
    assert.equal((await probe(`${t.url}/api/health`, 5000))?.status, 200);
    relay.freeze();
    const [health, ready] = await Promise.all([probe(`${t.url}/api/health`, 6000), probe(`${t.url}/api/ready`, 6000)]);
    // The probe's own 6 s is the bound (the check gives up at 2 s): a health that waited on the
    // query would never answer. No tighter bound in milliseconds: a loaded CI machine is late.
    assert.ok(health, '/api/health answered while the database hangs');
    assert.equal(health.status, 503);
    assert.equal(health.body.database, 'error');
    assert.equal(health.body.detail, 'Base de données indisponible.');
    assert.ok(ready, '/api/ready answered while the database hangs');
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body.checks, { database: 'error', storage: 'ok' });
    assert.ok(t.logs.some((l) => l.startsWith('health check: database unreachable')), t.logs.join('\n'));
    relay.thaw();
    assert.equal((await probe(`${t.url}/api/health`, 5000))?.status, 200);
  });
});
