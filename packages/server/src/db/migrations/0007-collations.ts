import { QueryTypes, type QueryInterface } from 'sequelize';

/**
 * MySQL/MariaDB only; SQLite compares bytes and stores UTF-8 whatever happens.
 *
 * 1. Every table in utf8mb4_unicode_ci, the collation the server's text parameters and stored
 *    procedures are declared in. Migrations 0001 to 0006 create their tables in the database's
 *    default collation, and a database made with a plain `CREATE DATABASE bt` is utf8mb4_general_ci
 *    (or latin1) on many servers: every backtest then failed ("Illegal mix of collations" between
 *    a column and a procedure parameter), and a name with an emoji could not be stored. Only the
 *    tables in another collation are converted, and the database's default is set for later tables.
 * 2. Addresses, usernames, third-party subjects and the event log's strategy names compared
 *    byte for byte (docs/security.md "Look-alike addresses"): utf8mb4_unicode_ci equates "é" and "e", "ä" and "a", full-width and
 *    plain letters, so a look-up or a unique index on admin@bt-désk.example found, or refused
 *    because of, admin@bt-desk.example. bt stores addresses and usernames in lower case, so a
 *    binary collation keeps SQLite's behaviour. Tightening a collation frees values, it never makes
 *    two rows collide, so this cannot fail on existing data. After step 1, which would undo it.
 */
const TABLES = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';
const BIN = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

const exactColumns = (collation: string) => [
  `ALTER TABLE users MODIFY username VARCHAR(64) ${collation} NULL, MODIFY email VARCHAR(191) ${collation} NULL, MODIFY deleted_email VARCHAR(191) ${collation} NULL`,
  `ALTER TABLE user_identities MODIFY subject VARCHAR(191) ${collation} NOT NULL, MODIFY email VARCHAR(191) ${collation} NULL`,
  `ALTER TABLE email_recreations MODIFY email VARCHAR(191) ${collation} NOT NULL`,
  // The admin's statistics group backtests by strategy: perso_RSI and perso_rsi are two strategies.
  `ALTER TABLE events MODIFY label VARCHAR(200) ${collation} NULL, MODIFY strategy VARCHAR(120) ${collation} NULL`,
];

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  const db = qi.sequelize;
  const [defaults] = await db.query<{ collation: string }>('SELECT DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()', { type: QueryTypes.SELECT });
  if (defaults?.collation !== 'utf8mb4_unicode_ci') await db.query(`ALTER DATABASE ${TABLES}`);
  const others = await db.query<{ name: string }>(
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' AND TABLE_COLLATION <> 'utf8mb4_unicode_ci'",
    { type: QueryTypes.SELECT },
  );
  for (const { name } of others) await db.query(`ALTER TABLE \`${name.replace(/`/g, '``')}\` CONVERT TO ${TABLES}`);
  for (const statement of exactColumns(BIN)) await db.query(statement);
}

/** The exact columns back in the case- and accent-blind collation (refused if look-alike rows now exist); the tables stay converted. */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  for (const statement of exactColumns(`CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)) await qi.sequelize.query(statement);
}
