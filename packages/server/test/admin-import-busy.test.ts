import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { LEASE_TTL_MS, MaintenanceLeases } from '../src/datasets/lease.js';
import { bootstrapLibrary } from '../src/datasets/bootstrap.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { LocalStorage } from '../src/storage/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { importArchive, importForm, libraryCsv } from './support/import-archives.js';
import { makeAdmin } from './support/work.js';

const MB = 1024 * 1024;
const BUSY = 'Une maintenance de la bibliothèque (import ou réindexation) est déjà en cours : réessaie quand elle sera terminée.';

/**
 * Two API servers on one database (docs/deployment.md, "Several servers"), each with its own
 * connection, as two machines would have: the library's maintenance (import, reindex) runs one at
 * a time across both, and a busy answer never waits for, nor holds, the body it refuses.
 */
let tdb: TestDatabase;
let secondDb: Database;
let a: TestApp;
let b: TestApp;
let keyA = '';
let keyB = '';

before(async () => {
  tdb = await openTestDatabase();
  secondDb = await openDatabase(tdb.url, { dataDir: '/nonexistent' });
  a = await startTestApp(tdb.db, { library: true });
  b = await startTestApp(secondDb, { library: true });
  keyA = (await makeAdmin(a)).key;
  // The same database: B's admin is another account of it.
  const adminB = await makeAdmin(b);
  keyB = adminB.key;
});
after(async () => {
  await a?.close();
  await b?.close();
  await secondDb?.close();
  await tdb?.drop();
});

/** Holds the library on `t` (as an import running there would) until the returned release is called. */
async function holdLibrary(t: TestApp): Promise<{ release: () => Promise<void> }> {
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const done = t.app.services.admin.importer.exclusive(async () => {
    entered();
    await released;
  });
  await inside;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/** The pid of a process that has ended. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

const importMarch = (t: TestApp, key: string) =>
  t.request('POST', '/api/admin/maintenance/import-output', {
    key,
    form: importForm({ target_month: '2023-03', mode: 'overwrite' }, { name: 'march.zip', bytes: importArchive([{ name: 'GBPUSD_M15_2023-03.csv', data: libraryCsv(a.libraryDir, 'EURUSD', 'M15', '2023-03') }]) }),
  });

describe(`library maintenance one at a time (${TEST_DIALECT})`, () => {
  it('a busy import is refused before its body is read: the 409 comes while the body is still arriving, and the rest is dropped', async () => {
    const held = await holdLibrary(a);
    try {
      const boundary = 'busyBOUNDARY';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`;
      const total = 3 * MB;
      const url = new URL(a.url);
      const answer = await new Promise<{ status: number; body: string; sentBeforeAnswer: number; finish: () => Promise<void> }>((resolve, reject) => {
        let sent = 0;
        const req = httpRequest(
          { host: url.hostname, port: url.port, method: 'POST', path: '/api/admin/maintenance/import-output', headers: { 'x-api-key': keyA, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': total } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
                sentBeforeAnswer: sent,
                // The rest of the body, sent after the answer: the server reads and drops it.
                finish: () =>
                  new Promise<void>((done, fail) => {
                    req.on('error', fail);
                    req.end(Buffer.alloc(total - sent, 0x41), () => done());
                  }),
              }),
            );
          },
        );
        req.on('error', reject);
        // A first part of the body, then nothing until the answer: a server that read the whole
        // body before its busy check would never answer.
        const first = Buffer.concat([Buffer.from(head), Buffer.alloc(64 * 1024, 0x41)]);
        sent = first.length;
        req.write(first);
      });
      assert.equal(answer.status, 409, answer.body);
      assert.equal(JSON.parse(answer.body).detail, BUSY);
      assert.ok(answer.sentBeforeAnswer < total, 'answered before the body ended');
      await answer.finish();
    } finally {
      await held.release();
    }
    // The library is free again: an import on A goes through.
    assert.equal((await importMarch(a, keyA)).status, 200);
  });

  it('an import or a reindex on B is refused while A holds the library, and goes through once A is done', async () => {
    const held = await holdLibrary(a);
    try {
      const imported = await importMarch(b, keyB);
      assert.equal(imported.status, 409, imported.text);
      assert.equal(imported.body.detail, BUSY);
      const reindexed = await b.request('POST', '/api/admin/csv/reindex-output', { key: keyB });
      assert.equal(reindexed.status, 409, reindexed.text);
      // And the other way round: A's own second import is refused without asking the database.
      assert.equal((await importMarch(a, keyA)).status, 409);
    } finally {
      await held.release();
    }
    const imported = await importMarch(b, keyB);
    assert.equal(imported.status, 200, imported.text);
    assert.equal(imported.body.counts.overwritten + imported.body.counts.added, 1);
  });

  it('a lease left by a process that died expires: B takes the library after the TTL, not before', async () => {
    // A process killed while holding it: the row says A holds it, and nobody renews it.
    const lease = await new MaintenanceLeases(tdb.db, a.clock).tryAcquire('library');
    assert.ok(lease);
    try {
      assert.equal((await importMarch(b, keyB)).status, 409);
      b.clock.advance(LEASE_TTL_MS + 1000);
      const imported = await importMarch(b, keyB);
      assert.equal(imported.status, 200, imported.text);
    } finally {
      await lease.release();
      // The two servers' clocks agree again, as two machines' do.
      a.clock.advance(LEASE_TTL_MS + 1000);
    }
  });

  it('at start, a lease left by a dead process of this host is freed; one held on another host, by a live process or by this one, is not', async () => {
    const { MaintenanceLease } = tdb.db.models;
    const leases = new MaintenanceLeases(tdb.db, a.clock);
    const future = new Date(a.clock.now().getTime() + LEASE_TTL_MS);
    const host = hostname().slice(0, 30);
    const deadPid = await exitedPid();
    for (const [holder, freed] of [
      [`other-host/${deadPid}/x`, false],
      [`${host}/${process.ppid}/x`, false],
      [`${host}/${deadPid}/x`, true],
      // This pid, started at another time: the previous life of a process restarted with it.
      [`${host}/${process.pid}/x/y`, true],
    ] as const) {
      await MaintenanceLease.update({ holder, expiresAt: future }, { where: { name: 'library' } });
      assert.equal(await leases.freeOrphan('library'), freed, holder);
      assert.equal((await MaintenanceLease.findByPk('library'))!.holder, freed ? null : holder);
    }
    const own = await leases.tryAcquire('library');
    assert.ok(own);
    assert.equal(await leases.freeOrphan('library'), false, 'a lease this process holds');
    await own.release();
  });

  it('a server starting while another holds the library leaves the recovery to it: the other import\'s journal line stays', async () => {
    const held = await holdLibrary(a);
    const line = await tdb.db.models.DatasetJournalEntry.create({ path: 'EURUSD/M15/EURUSD_M15_2023-03.csv', createdAt: new Date() });
    const logs: string[] = [];
    try {
      await bootstrapLibrary(secondDb, new LocalStorage(b.libraryDir), null, (m) => logs.push(m), b.clock);
      assert.ok(await tdb.db.models.DatasetJournalEntry.findByPk(line.id), 'not recovered under the running import');
      assert.ok(logs.some((m) => /another server is maintaining the library/.test(m)), logs.join('\n'));
    } finally {
      await held.release();
    }
    await bootstrapLibrary(secondDb, new LocalStorage(b.libraryDir), null, () => {}, b.clock);
    assert.equal(await tdb.db.models.DatasetJournalEntry.count(), 0, 'recovered once the library is free');
  });

  it('imports sent to A and B at once: never two at the same time, each answered 200 or 409', async () => {
    const results = await Promise.all([importMarch(a, keyA), importMarch(b, keyB), importMarch(a, keyA), importMarch(b, keyB)]);
    const statuses = results.map((r) => r.status);
    assert.ok(statuses.every((s) => s === 200 || s === 409), statuses.join(','));
    assert.ok(statuses.includes(200), statuses.join(','));
    assert.equal(await tdb.db.models.DatasetJournalEntry.count(), 0);
    assert.equal(await tdb.db.models.MaintenanceLease.count({ where: { holder: null } }), 1, 'the lease is free after them');
  });
});
