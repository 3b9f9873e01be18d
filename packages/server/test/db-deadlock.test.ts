import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from './support/db.js';

// MySQL/MariaDB only: SQLite has one writer at a time and no deadlock to retry.
const mysql = TEST_DIALECT === 'mysql';
let t: TestDatabase;
before(async () => {
  if (mysql) t = await openTestDatabase();
});
after(async () => {
  if (mysql) await t.drop();
});

describe('db.autocommit retries a statement chosen as a deadlock victim (MySQL/MariaDB)', { skip: !mysql && 'runs on MariaDB (BT_TEST_DB=mariadb)' }, () => {
  it('the CALL rolled back by InnoDB runs again once the other transaction commits: applied exactly once', async () => {
    const q = (sql: string) => t.db.sequelize.query(sql);
    await q('CREATE TABLE dl_rows (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB');
    await q('INSERT INTO dl_rows VALUES (1, 0), (2, 0)');
    await q('CREATE TABLE dl_filler (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB');
    await q(`INSERT INTO dl_filler VALUES ${Array.from({ length: 200 }, (_, i) => `(${i + 1}, 0)`).join(', ')}`);
    // Not transactional: counts every attempt, the rolled-back ones included.
    await q('CREATE TABLE dl_attempts (n INT) ENGINE=MEMORY');
    // Locks row 2, then row 1: the opposite order of the transaction below.
    await q(`CREATE PROCEDURE dl_pair() BEGIN
      INSERT INTO dl_attempts VALUES (1);
      START TRANSACTION;
      UPDATE dl_rows SET v = v + 10 WHERE id = 2;
      UPDATE dl_rows SET v = v + 10 WHERE id = 1;
      COMMIT;
      SELECT 1 AS done;
    END`);

    const other = await createConnection(t.url);
    try {
      // The heavier transaction (201 rows changed): InnoDB rolls back the lighter one, the CALL.
      await other.query('START TRANSACTION');
      await other.query('UPDATE dl_filler SET v = v + 1');
      await other.query('UPDATE dl_rows SET v = v + 1 WHERE id = 1');
      const call = t.db.autocommit<{ done: number }>('CALL dl_pair()');
      const database = new URL(t.url).pathname.slice(1);
      // The CALL's second UPDATE running means it waits for row 1 (the transaction above holds it).
      for (let waited = 0; ; waited += 20) {
        const [rows] = await other.query(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO = 'UPDATE dl_rows SET v = v + 10 WHERE id = 1'`, [database]);
        if (Number((rows as { n: number }[])[0].n) > 0) break;
        assert.ok(waited < 15_000, 'the CALL never waited for row 1');
        await new Promise((r) => setTimeout(r, 20));
      }
      // Row 2 is the CALL's: a cycle, and InnoDB picks the CALL as the victim.
      await other.query('UPDATE dl_rows SET v = v + 1 WHERE id = 2');
      await other.query('COMMIT');
      const [answer] = await call;
      assert.equal(Number(answer.done), 1);
    } finally {
      await other.end();
    }
    const [rows] = await t.db.sequelize.query('SELECT id, v FROM dl_rows ORDER BY id');
    assert.deepEqual((rows as { id: number; v: number }[]).map((r) => [r.id, r.v]), [[1, 11], [2, 11]], 'each side applied once');
    const [attempts] = await t.db.sequelize.query('SELECT COUNT(*) AS n FROM dl_attempts');
    assert.equal(Number((attempts as { n: number }[])[0].n), 2, 'the CALL ran twice: rolled back once, then committed');
  });
});
