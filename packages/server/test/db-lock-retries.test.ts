// Transactions run again because of another's lock are counted (Database.lockRetries) and exported
// as bt_db_lock_retries_total: on MariaDB a real deadlock between two of the app's transactions, on
// SQLite another connection holding the file's write lock past the busy timeout. Each case also
// checks that the retried transaction committed (docs/deployment.md, "Metrics").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sqlite3 from 'sqlite3';
import { isDatabaseUnavailable, type Database } from '../src/db/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';

let database: TestDatabase;
let db: Database;
let app: TestApp;

before(async () => {
  // A short busy timeout: a SQLite transaction meets SQLITE_BUSY after 100 ms instead of 10 s.
  database = await openTestDatabase(undefined, { busyTimeoutMs: 100 });
  db = database.db;
  app = await startTestApp(db);
  await db.sequelize.query('CREATE TABLE lock_probe (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)');
  await db.sequelize.query('INSERT INTO lock_probe (id, v) VALUES (1, 0), (2, 0)');
});
after(async () => {
  await app?.close();
  await database?.drop();
});

async function exported(): Promise<number> {
  const res = await app.request('GET', '/metrics');
  assert.equal(res.status, 200, res.text);
  const line = /^bt_db_lock_retries_total (\d+)$/m.exec(res.text);
  assert.ok(line, res.text);
  return Number(line[1]);
}

async function probe(): Promise<number[]> {
  const [rows] = await db.sequelize.query('SELECT v FROM lock_probe ORDER BY id');
  return (rows as { v: number }[]).map((row) => Number(row.v));
}

/** Resolves once `done()` holds, checking every 5 ms (at most `ms`). */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe(`lock retries (${TEST_DIALECT})`, () => {
  it('none yet: the metric says 0', async () => {
    assert.equal(db.lockRetries.count, 0);
    assert.equal(await exported(), 0);
  });

  it('MariaDB: two transactions locking two rows in opposite orders deadlock; the victim runs again, both commit, one retry counted and exported', { skip: TEST_DIALECT !== 'mysql' && 'a deadlock needs InnoDB: MariaDB pass' }, async () => {
    const before = db.lockRetries.count;
    let firstHolds!: () => void;
    let secondHolds!: () => void;
    const firstHeld = new Promise<void>((r) => (firstHolds = r));
    const secondHeld = new Promise<void>((r) => (secondHolds = r));
    const attempts = [0, 0];
    // Each locks its own row, waits until the other holds its row, then asks for the other's.
    // A transaction run again finds the crossing passed and simply waits for the other's commit.
    const crossing = (which: 0 | 1) =>
      db.transaction(async (t) => {
        const attempt = ++attempts[which];
        const [mine, theirs] = which === 0 ? [1, 2] : [2, 1];
        await db.raw(t).run(`UPDATE lock_probe SET v = v + 1 WHERE id = ${mine}`);
        if (attempt === 1) {
          (which === 0 ? firstHolds : secondHolds)();
          await (which === 0 ? secondHeld : firstHeld);
        }
        await db.raw(t).run(`UPDATE lock_probe SET v = v + 10 WHERE id = ${theirs}`);
      });
    await Promise.all([crossing(0), crossing(1)]);
    assert.deepEqual(attempts.slice().sort(), [1, 2], 'one transaction ran once, the deadlock victim twice');
    assert.deepEqual(await probe(), [11, 11], 'both transactions committed, the victim once');
    assert.equal(db.lockRetries.count, before + 1);
    assert.equal(await exported(), db.lockRetries.count);
  });

  it('MariaDB: a row another connection holds through all four tries: three retries counted, then an error the API answers as the database unavailable (503, not a 500)', { skip: TEST_DIALECT !== 'mysql' && 'InnoDB row locks: MariaDB pass' }, async () => {
    const { createConnection } = await import('mysql2/promise');
    const other = await createConnection(database.url);
    try {
      await other.query('BEGIN');
      await other.query('SELECT v FROM lock_probe WHERE id = 1 FOR UPDATE');
      const before = db.lockRetries.count;
      let tries = 0;
      // NOWAIT: MariaDB answers a lock wait timeout at once instead of after innodb_lock_wait_timeout.
      const failure = await db
        .transaction(async (t) => {
          tries++;
          await db.raw(t).all('SELECT v FROM lock_probe WHERE id = 1 FOR UPDATE NOWAIT');
        })
        .then(
          () => null,
          (err: unknown) => err,
        );
      assert.ok(failure instanceof Error, 'the transaction failed');
      assert.equal(tries, 4);
      assert.equal(db.lockRetries.count, before + 3);
      assert.equal(isDatabaseUnavailable(failure), true, String(failure));
      assert.equal(await exported(), db.lockRetries.count);
    } finally {
      await other.query('ROLLBACK').catch(() => {});
      await other.end();
    }
  });

  it('SQLite: another connection holding the write lock past the busy timeout: the transaction and the script run again, commit, and are counted and exported', { skip: TEST_DIALECT !== 'sqlite' && 'SQLITE_BUSY: SQLite pass' }, async () => {
    const file = (db.sequelize as unknown as { options: { storage: string } }).options.storage;
    const other = new sqlite3.Database(file);
    const exec = (sql: string) => new Promise<void>((resolve, reject) => other.exec(sql, (err) => (err ? reject(err) : resolve())));
    try {
      for (const write of [
        () => db.transaction((t) => db.raw(t).run('UPDATE lock_probe SET v = v + 1 WHERE id = 1')),
        () => db.script(['UPDATE lock_probe SET v = v + 1 WHERE id = 2'], async (_session, changes) => changes),
      ]) {
        const before = db.lockRetries.count;
        await exec('BEGIN IMMEDIATE');
        const written = write();
        // Released once the write has met SQLITE_BUSY and been sent again, not after a guessed delay.
        await until(() => db.lockRetries.count > before, 5_000, 'a retry');
        await exec('COMMIT');
        await written;
        assert.ok(db.lockRetries.count > before);
      }
      assert.deepEqual(await probe(), [1, 1], 'each write committed once');
      assert.equal(await exported(), db.lockRetries.count);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });
});
