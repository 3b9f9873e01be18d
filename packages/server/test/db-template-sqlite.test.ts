// On SQLite each test process migrates one template database and each file's database starts as a
// copy of it (test/support/sqlite-template.ts; docs/development.md, "A migrated template for the
// SQLite pass"). The copy must be the migrated database exactly, or the pass would test another
// database than an operator's: here a database migrated from scratch and two copies are compared,
// schema object by object, setting by setting and row by row.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { QueryTypes } from 'sequelize';
import { migrate, openDatabase, type Database } from '../src/db/index.js';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from './support/db.js';
import { copySqliteTemplate, sqliteTemplate } from './support/sqlite-template.js';

const select = (db: Database, sql: string) => db.sequelize.query<Record<string, unknown>>(sql, { type: QueryTypes.SELECT });

/** Everything a migration can leave in a SQLite file: its schema objects, file settings and rows. */
async function contents(db: Database) {
  // Automatic indexes (sqlite_autoindex_<table>_<n>) included: their names follow their tables'.
  const schema = await select(db, 'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name');
  const settings: Record<string, unknown> = {};
  for (const pragma of ['user_version', 'application_id', 'page_size', 'auto_vacuum', 'encoding', 'journal_mode', 'foreign_keys']) {
    settings[pragma] = Object.values((await select(db, `PRAGMA ${pragma}`))[0] ?? {})[0];
  }
  const rows: Record<string, unknown[]> = {};
  const tables = schema.filter((o) => o.type === 'table').map((o) => String(o.name));
  for (const table of tables) rows[table] = await select(db, `SELECT * FROM "${table.replace(/"/g, '""')}" ORDER BY rowid`);
  return { schema, settings, rows, tables };
}

describe('the SQLite pass’s template copy', { skip: TEST_DIALECT !== 'sqlite' && 'SQLite only: the MariaDB pass copies its own template (db-template.test.ts)' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bt-template-check-'));
  let migrated: Database;
  let copies: TestDatabase[] = [];

  before(async () => {
    migrated = await openDatabase(`sqlite:${join(dir, 'bt.sqlite')}`, { dataDir: tmpdir() });
    await migrate(migrated.sequelize);
    copies = [await openTestDatabase(), await openTestDatabase()];
  });
  after(async () => {
    await migrated?.close();
    for (const copy of copies) await copy.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the same tables, indexes, triggers and views, the same file settings, the same rows', async () => {
    const expected = await contents(migrated);
    assert.ok(expected.tables.length >= 20, `${expected.tables.length} tables migrated`);
    assert.ok(expected.schema.some((o) => o.type === 'index'), 'the migrations create indexes');
    assert.ok(expected.rows.schema_migrations.length >= 15, `${expected.rows.schema_migrations.length} migrations logged`);
    for (const copy of copies) assert.deepEqual(await contents(copy.db), expected);
  });

  it('a copy is where the migrations leave off: migrate() finds nothing to do, and foreign keys are enforced', async () => {
    assert.deepEqual(await migrate(copies[0].db.sequelize), []);
    const [fk] = await select(copies[0].db, 'PRAGMA foreign_key_check');
    assert.equal(fk, undefined);
    await assert.rejects(
      copies[0].db.sequelize.query("INSERT INTO credit_ledger (user_id, kind, reason, amount, balance_after, created_at) VALUES (999999, 'grant', 'probe', 1, 1, '2026-01-01 00:00:00')"),
      /FOREIGN KEY constraint failed/,
    );
  });

  it('each copy is a database of its own: a table made in one is in neither the other nor the template', async () => {
    await copies[0].db.sequelize.query('CREATE TABLE probe_only_here (x INTEGER)');
    const names = async (db: Database) => (await select(db, "SELECT name FROM sqlite_master WHERE name = 'probe_only_here'")).length;
    assert.equal(await names(copies[0].db), 1);
    assert.equal(await names(copies[1].db), 0);
    const template = await openDatabase(`sqlite:${await sqliteTemplate()}`, { dataDir: tmpdir() });
    try {
      assert.equal(await names(template), 0);
    } finally {
      await template.close();
    }
    assert.notEqual(copies[0].url, copies[1].url);
  });

  it('one template per process, made once, and never copied over a database that exists', async () => {
    const [a, b] = await Promise.all([sqliteTemplate(), sqliteTemplate()]);
    assert.equal(a, b);
    assert.ok(existsSync(a));
    const existing = copies[0].url.slice('sqlite:'.length);
    await assert.rejects(copySqliteTemplate(existing), /refusing to copy the SQLite test template over an existing database/);
  });
});
