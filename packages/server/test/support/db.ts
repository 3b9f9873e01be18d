import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { migrate, openDatabase, type Database, type DatabaseOptions } from '../../src/db/index.js';
import { copySqliteTemplate } from './sqlite-template.js';

/**
 * The database the suite runs on: SQLite by default, MariaDB/MySQL when BT_TEST_DB=mariadb
 * (server from BT_TEST_MYSQL_URL, default mysql://root@127.0.0.1:3306). Each test file gets a
 * fresh database (bt_test_<pid>_<random>), migrated (never sync()) or, in the MariaDB pass, a copy
 * of the pass's migrated template, and drops it at the end.
 */
export const TEST_DIALECT = process.env.BT_TEST_DB === 'mariadb' || process.env.BT_TEST_DB === 'mysql' ? 'mysql' : 'sqlite';
export const MYSQL_SERVER = process.env.BT_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
/** bt's own character set and collation, what every test database is created with unless a test says otherwise. */
export const MYSQL_CREATE_OPTIONS = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';
/**
 * `{ skip: SQLITE_PASS_ONLY }`: a part of a test file that uses no database, or only a server
 * process (always on SQLite), runs in the SQLite pass alone; on MariaDB it would run the same code
 * again. Whole files of that kind are left out of the MariaDB pass by scripts/test-mariadb.mjs.
 */
export const SQLITE_PASS_ONLY = TEST_DIALECT === 'mysql' ? 'uses no database: runs in the SQLite pass' : false;

/**
 * A list of cases whose verdict comes from code that reads no database (the strategy sandbox), sent
 * through routes that do: every case in the SQLite pass; in the MariaDB pass, the first case of each
 * kind (`kindOf`: the verdict, as the routes and the database see it). What the database meets,
 * the refusal archived, nothing charged, a refund, is the same for every case of a kind, and the
 * sandbox's own verdicts are already checked case by case in the SQLite pass
 * (docs/development.md, "Cheaper hashes, fewer repeats").
 */
export function casesForThisPass<T>(cases: T[], kindOf: (item: T) => string): T[] {
  if (TEST_DIALECT !== 'mysql') return cases;
  const seen = new Set<string>();
  return cases.filter((item) => {
    const kind = kindOf(item);
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
}

export interface TestDatabase {
  db: Database;
  url: string;
  drop(): Promise<void>;
}

/**
 * `createOptions`: what follows `CREATE DATABASE name` on MySQL (the character set and collation;
 * '' for the server's defaults, as an operator's plain `CREATE DATABASE bt` gets).
 */
export async function createTestDatabaseUrl(dialect: 'sqlite' | 'mysql' = TEST_DIALECT, createOptions = MYSQL_CREATE_OPTIONS): Promise<{ url: string; drop(): Promise<void> }> {
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

/**
 * The pass's migrated template (scripts/test-mariadb.mjs sets it; docs/development.md, "A migrated
 * template for the MariaDB pass"): a file's database is then a copy of it instead of 15 migrations.
 * Without it (one file run alone), or for a database created with other options, it is migrated.
 * On SQLite each test process migrates a template of its own once (./sqlite-template.ts).
 */
const MYSQL_TEMPLATE = TEST_DIALECT === 'mysql' ? process.env.BT_TEST_MYSQL_TEMPLATE || undefined : undefined;

/**
 * Fills the new database at `url` from a migrated template when there is one: the MariaDB pass's,
 * or on SQLite the process's own (its first database is migrated into it). Whether it did.
 */
async function copyTemplateInto(url: string, createOptions: string | undefined): Promise<boolean> {
  if (TEST_DIALECT === 'sqlite') {
    await copySqliteTemplate(url.slice('sqlite:'.length));
    return true;
  }
  if (!MYSQL_TEMPLATE || createOptions !== undefined) return false;
  const { copyTemplate } = await import('./db-template.js');
  await copyTemplate(MYSQL_SERVER, MYSQL_TEMPLATE, decodeURIComponent(new URL(url).pathname.slice(1)));
  return true;
}

/** `openOptions`: more of openDatabase's options (a shorter SQLite busy timeout). */
export async function openTestDatabase(createOptions?: string, openOptions: Partial<DatabaseOptions> = {}): Promise<TestDatabase> {
  const { url, drop } = await createTestDatabaseUrl(TEST_DIALECT, createOptions);
  let db: Database | undefined;
  try {
    const copied = await copyTemplateInto(url, createOptions);
    db = await openDatabase(url, { dataDir: tmpdir(), ...openOptions });
    if (!copied) await migrate(db.sequelize);
  } catch (err) {
    await db?.close().catch(() => {});
    await drop().catch(() => {});
    throw err;
  }
  const opened = db;
  return {
    db: opened,
    url,
    drop: async () => {
      await opened.close();
      await drop();
    },
  };
}
