// The MariaDB pass copies one migrated template into each file's database instead of migrating it
// (test/support/db-template.ts; docs/development.md, "A migrated template for the MariaDB pass").
// The copy must be the migrated schema exactly, or the pass would test another database than an
// operator's: here a database migrated from scratch and a copy of it are compared through
// information_schema, table by table, index by index, key by key, and by their rows.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { MYSQL_CREATE_OPTIONS, MYSQL_SERVER, TEST_DIALECT } from './support/db.js';
import { migrations } from '../src/db/migrations/index.js';

const quote = (name: string) => `\`${name}\``;

describe('the MariaDB pass’s template copy', { skip: TEST_DIALECT !== 'mysql' && 'MySQL only: the SQLite pass copies a template of its own (db-template-sqlite.test.ts)' }, () => {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const migrated = `bt_test_template_${suffix}`;
  const copy = `bt_test_copy_${suffix}`;
  let conn: Connection;

  const select = async (sql: string, schema: string) => {
    const [rows] = await conn.query<RowDataPacket[]>(sql, [schema]);
    return rows.map((row) => ({ ...row }));
  };
  /** The same query on both databases; `TABLE_SCHEMA` and the like are left out of each query. */
  const both = async (sql: string) => ({ migrated: await select(sql, migrated), copy: await select(sql, copy) });

  // Imported here: the files of the SQLite pass never load the MySQL client.
  let copyTemplate: typeof import('./support/db-template.js').copyTemplate;
  before(async () => {
    const { createConnection } = await import('mysql2/promise');
    const template = await import('./support/db-template.js');
    copyTemplate = template.copyTemplate;
    conn = await createConnection(MYSQL_SERVER);
    await template.createMigratedTemplate(MYSQL_SERVER, migrated, MYSQL_CREATE_OPTIONS);
    await conn.query(`CREATE DATABASE ${quote(copy)} ${MYSQL_CREATE_OPTIONS}`);
    await copyTemplate(MYSQL_SERVER, migrated, copy);
  });
  after(async () => {
    await conn?.query(`DROP DATABASE IF EXISTS ${quote(migrated)}`);
    await conn?.query(`DROP DATABASE IF EXISTS ${quote(copy)}`);
    await conn?.end();
  });

  it('the same tables: engine, collation, row format, options, comment', async () => {
    const { migrated: a, copy: b } = await both(
      'SELECT TABLE_NAME, TABLE_TYPE, ENGINE, ROW_FORMAT, TABLE_COLLATION, CREATE_OPTIONS, TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
    );
    assert.ok(a.length >= 20, `${a.length} tables migrated`);
    assert.deepEqual(b, a);
    const [schemas] = await conn.query<RowDataPacket[]>('SELECT SCHEMA_NAME AS name, DEFAULT_CHARACTER_SET_NAME AS charset, DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN (?, ?)', [migrated, copy]);
    assert.equal(schemas.length, 2);
    assert.deepEqual({ ...schemas[0], name: '' }, { ...schemas[1], name: '' });
  });

  it('the same columns: types, nullability, defaults, character sets, collations, extras, generation', async () => {
    const { migrated: a, copy: b } = await both(
      `SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME,
        COLUMN_KEY, EXTRA, COLUMN_COMMENT, IS_GENERATED, GENERATION_EXPRESSION
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    );
    assert.ok(a.length > 100, `${a.length} columns`);
    assert.deepEqual(b, a);
  });

  it('the same indexes: names, columns in order, prefixes, uniqueness, types', async () => {
    const { migrated: a, copy: b } = await both(
      `SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE, SUB_PART, COLLATION, NULLABLE, INDEX_TYPE, IGNORED
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    );
    assert.ok(a.some((row) => row.NON_UNIQUE === 1), 'secondary indexes migrated');
    assert.deepEqual(b, a);
  });

  it('the same foreign keys: columns, referenced tables and columns, update and delete rules', async () => {
    const keys = await both(
      `SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, ORDINAL_POSITION, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
       FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
    );
    assert.deepEqual(keys.copy, keys.migrated);
    const rules = await both(
      `SELECT CONSTRAINT_NAME, TABLE_NAME, REFERENCED_TABLE_NAME, UNIQUE_CONSTRAINT_NAME, MATCH_OPTION, UPDATE_RULE, DELETE_RULE
       FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? ORDER BY TABLE_NAME, CONSTRAINT_NAME`,
    );
    assert.ok(rules.migrated.length > 0, 'foreign keys migrated');
    assert.ok(rules.migrated.some((row) => row.DELETE_RULE === 'CASCADE'), 'an ON DELETE CASCADE among them');
    assert.deepEqual(rules.copy, rules.migrated);
    const checks = await both('SELECT TABLE_NAME, CONSTRAINT_NAME, CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? ORDER BY TABLE_NAME, CONSTRAINT_NAME');
    assert.deepEqual(checks.copy, checks.migrated);
  });

  it('the same stored procedures, created under the same sql_mode and character sets', async () => {
    const { migrated: a, copy: b } = await both(
      `SELECT ROUTINE_NAME, ROUTINE_TYPE, ROUTINE_DEFINITION, IS_DETERMINISTIC, SQL_DATA_ACCESS, SECURITY_TYPE, SQL_MODE,
        CHARACTER_SET_CLIENT, COLLATION_CONNECTION, DATABASE_COLLATION, DEFINER
       FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? ORDER BY ROUTINE_NAME`,
    );
    assert.deepEqual(a.map((row) => row.ROUTINE_NAME), ['bt_charge_backtest', 'bt_finish_backtest']);
    assert.deepEqual(b, a);
    const params = await both('SELECT SPECIFIC_NAME, ORDINAL_POSITION, PARAMETER_MODE, PARAMETER_NAME, DTD_IDENTIFIER, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.PARAMETERS WHERE SPECIFIC_SCHEMA = ? ORDER BY SPECIFIC_NAME, ORDINAL_POSITION');
    assert.deepEqual(params.copy, params.migrated);
  });

  it('the same rows: the migration log in order, the invoice counter, and nothing else', async () => {
    const tables = (await select("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", migrated)).map((row) => row.name as string);
    const filled: string[] = [];
    for (const table of tables) {
      const [a] = await conn.query<RowDataPacket[]>(`SELECT * FROM ${quote(migrated)}.${quote(table)} ORDER BY 1`);
      const [b] = await conn.query<RowDataPacket[]>(`SELECT * FROM ${quote(copy)}.${quote(table)} ORDER BY 1`);
      assert.deepEqual(b.map((row) => ({ ...row })), a.map((row) => ({ ...row })), table);
      if (a.length) filled.push(table);
    }
    assert.deepEqual(filled, ['invoice_counters', 'schema_migrations']);
    const [log] = await conn.query<RowDataPacket[]>(`SELECT name FROM ${quote(copy)}.schema_migrations`);
    assert.equal(log.length, migrations.length);
  });

  it('a copy is where the migrations leave off: migrate() finds nothing to do, and foreign keys are enforced', async () => {
    const { openDatabase, migrate } = await import('../src/db/index.js');
    const db = await openDatabase(`${MYSQL_SERVER.replace(/\/+$/, '')}/${copy}`, { dataDir: process.cwd() });
    try {
      assert.deepEqual(await migrate(db.sequelize), []);
      await assert.rejects(db.sequelize.query("INSERT INTO api_keys (user_id, key_hash, created_at) VALUES (999999, 'x', NOW())"), /foreign key constraint fails/);
    } finally {
      await db.close();
    }
  });

  it('refuses a template with an object it does not copy (a view), rather than leave it out', async () => {
    const withView = `bt_test_template_view_${suffix}`;
    const other = `bt_test_copy2_${suffix}`;
    await conn.query(`CREATE DATABASE ${quote(withView)} ${MYSQL_CREATE_OPTIONS}`);
    await conn.query(`CREATE DATABASE ${quote(other)} ${MYSQL_CREATE_OPTIONS}`);
    try {
      await conn.query(`CREATE TABLE ${quote(withView)}.users (id INT PRIMARY KEY)`);
      await conn.query(`CREATE VIEW ${quote(withView)}.v_users AS SELECT id FROM ${quote(withView)}.users`);
      await assert.rejects(copyTemplate(MYSQL_SERVER, withView, other), /VIEW v_users/);
    } finally {
      await conn.query(`DROP DATABASE IF EXISTS ${quote(other)}`);
      await conn.query(`DROP DATABASE IF EXISTS ${quote(withView)}`);
    }
  });
});
