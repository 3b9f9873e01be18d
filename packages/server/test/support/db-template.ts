import { tmpdir } from 'node:os';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { migrate, openDatabase } from '../../src/db/index.js';

/**
 * The MariaDB pass's template database (docs/development.md, "A migrated template for the MariaDB
 * pass"): scripts/test-mariadb.mjs migrates one database once (`createMigratedTemplate`), and each
 * test file's database is a copy of it (`copyTemplate`): every table's DDL from SHOW CREATE TABLE,
 * the stored routines with the sql_mode and character set they were created under, then the rows
 * the migrations left (the migration log, the invoice counter). test/db-template.test.ts compares a
 * copy with the migrated database through information_schema.
 */

const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

export async function createMigratedTemplate(server: string, name: string, createOptions: string): Promise<void> {
  const admin = await createConnection(server);
  try {
    await admin.query(`CREATE DATABASE ${quote(name)} ${createOptions}`);
  } finally {
    await admin.end();
  }
  const db = await openDatabase(`${server.replace(/\/+$/, '')}/${name}`, { dataDir: tmpdir() });
  try {
    await migrate(db.sequelize);
  } finally {
    await db.close();
  }
}

interface Routine {
  create: string;
  sqlMode: string;
  charset: string;
  collation: string;
}

interface TemplateContents {
  tables: string[];
  routines: Routine[];
  /** Tables with rows after migration, each with its columns (generated ones left out). */
  filled: { table: string; columns: string[] }[];
}

async function rows<T>(conn: Connection, sql: string, values: unknown[] = []): Promise<T[]> {
  const [result] = await conn.query<RowDataPacket[]>(sql, values);
  return result as T[];
}

async function readTemplate(conn: Connection, template: string): Promise<TemplateContents> {
  // What the copy does not reproduce: a migration that adds one must extend copyTemplate.
  const others = [
    ...(await rows<{ what: string }>(conn, "SELECT CONCAT(TABLE_TYPE, ' ', TABLE_NAME) AS what FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE <> 'BASE TABLE'", [template])),
    ...(await rows<{ what: string }>(conn, "SELECT CONCAT('TRIGGER ', TRIGGER_NAME) AS what FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?", [template])),
    ...(await rows<{ what: string }>(conn, "SELECT CONCAT('EVENT ', EVENT_NAME) AS what FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ?", [template])),
  ].map((row) => row.what);
  if (others.length) throw new Error(`the test template ${template} has objects its copy does not reproduce (test/support/db-template.ts): ${others.join(', ')}`);

  const tables = (await rows<{ name: string }>(conn, "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", [template])).map((row) => row.name);
  const filled: TemplateContents['filled'] = [];
  for (const table of tables) {
    const [any] = await rows(conn, `SELECT 1 FROM ${quote(template)}.${quote(table)} LIMIT 1`);
    if (!any) continue;
    const columns = await rows<{ name: string }>(conn, "SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND IS_GENERATED = 'NEVER' ORDER BY ORDINAL_POSITION", [template, table]);
    filled.push({ table, columns: columns.map((row) => row.name) });
  }
  const routines: Routine[] = [];
  for (const { name, type } of await rows<{ name: string; type: string }>(conn, 'SELECT ROUTINE_NAME AS name, ROUTINE_TYPE AS type FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? ORDER BY ROUTINE_NAME', [template])) {
    const [shown] = await rows<Record<string, string>>(conn, `SHOW CREATE ${type === 'FUNCTION' ? 'FUNCTION' : 'PROCEDURE'} ${quote(template)}.${quote(name)}`);
    const create = shown[type === 'FUNCTION' ? 'Create Function' : 'Create Procedure'];
    if (!create) throw new Error(`SHOW CREATE ${type} ${template}.${name} gave no definition (missing privilege?)`);
    routines.push({ create, sqlMode: shown.sql_mode, charset: shown.character_set_client, collation: shown.collation_connection });
  }
  return { tables, routines, filled };
}

// A test process opens several databases (one per useTestApp); the template does not change during a pass.
const contents = new Map<string, { tables: Promise<TemplateContents>; ddl: Map<string, string> }>();

/** Fills the empty database `target` with the template's tables, routines and rows. */
export async function copyTemplate(server: string, template: string, target: string): Promise<void> {
  const conn = await createConnection(server);
  try {
    let known = contents.get(template);
    if (!known) {
      known = { tables: readTemplate(conn, template), ddl: new Map() };
      contents.set(template, known);
      known.tables.catch(() => contents.delete(template));
    }
    const { tables, routines, filled } = await known.tables;
    await conn.query(`USE ${quote(target)}`);
    await conn.query('SET SESSION FOREIGN_KEY_CHECKS = 0');
    for (const table of tables) {
      let ddl = known.ddl.get(table);
      if (!ddl) {
        const [shown] = await rows<{ 'Create Table': string }>(conn, `SHOW CREATE TABLE ${quote(template)}.${quote(table)}`);
        // The counter's position is the template's rows' business; the copy's tables start empty.
        ddl = shown['Create Table'].replace(/ AUTO_INCREMENT=\d+/, '');
        known.ddl.set(table, ddl);
      }
      await conn.query(ddl);
    }
    for (const { table, columns } of filled) {
      const list = columns.map(quote).join(', ');
      await conn.query(`INSERT INTO ${quote(table)} (${list}) SELECT ${list} FROM ${quote(template)}.${quote(table)}`);
    }
    // Each routine under the sql_mode and connection character set it was created with, as a dump restores it.
    for (const routine of routines) {
      await conn.query('SET SESSION sql_mode = ?', [routine.sqlMode]);
      await conn.query(`SET NAMES ${routine.charset} COLLATE ${routine.collation}`);
      await conn.query(routine.create);
    }
  } finally {
    await conn.end();
  }
}
