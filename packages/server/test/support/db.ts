import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { migrate, openDatabase, type Database } from '../../src/db/index.js';

/**
 * The database the suite runs on: SQLite by default, MariaDB/MySQL when BT_TEST_DB=mariadb
 * (server from BT_TEST_MYSQL_URL, default mysql://root@127.0.0.1:3306). Each test file gets a
 * fresh database (bt_test_<pid>_<random>), migrated (never sync()), and drops it at the end.
 */
export const TEST_DIALECT = process.env.BT_TEST_DB === 'mariadb' || process.env.BT_TEST_DB === 'mysql' ? 'mysql' : 'sqlite';
const MYSQL_SERVER = process.env.BT_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
/**
 * `{ skip: SQLITE_PASS_ONLY }`: a part of a test file that uses no database, or only a server
 * process (always on SQLite), runs in the SQLite pass alone; on MariaDB it would run the same code
 * again. Whole files of that kind are left out of the MariaDB pass by scripts/test-mariadb.mjs.
 */
export const SQLITE_PASS_ONLY = TEST_DIALECT === 'mysql' ? 'uses no database: runs in the SQLite pass' : false;

export interface TestDatabase {
  db: Database;
  url: string;
  drop(): Promise<void>;
}

/**
 * `createOptions`: what follows `CREATE DATABASE name` on MySQL (the character set and collation;
 * '' for the server's defaults, as an operator's plain `CREATE DATABASE bt` gets).
 */
export async function createTestDatabaseUrl(dialect: 'sqlite' | 'mysql' = TEST_DIALECT, createOptions = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci'): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'mysql') {
    // Imported here: the files of the SQLite pass never load the MySQL client (docs/development.md).
    const { createConnection } = await import('mysql2/promise');
    const name = `bt_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = await createConnection(MYSQL_SERVER);
    await admin.query(`CREATE DATABASE \`${name}\` ${createOptions}`);
    await admin.end();
    return {
      url: `${MYSQL_SERVER.replace(/\/+$/, '')}/${name}`,
      drop: async () => {
        const conn = await createConnection(MYSQL_SERVER);
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bt-test-'));
  return { url: `sqlite:${join(dir, 'bt.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function openTestDatabase(createOptions?: string): Promise<TestDatabase> {
  const { url, drop } = await createTestDatabaseUrl(TEST_DIALECT, createOptions);
  const db = await openDatabase(url, { dataDir: tmpdir() });
  await migrate(db.sequelize);
  return {
    db,
    url,
    drop: async () => {
      await db.close();
      await drop();
    },
  };
}
