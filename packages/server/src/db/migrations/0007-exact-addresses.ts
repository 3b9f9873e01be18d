import type { QueryInterface } from 'sequelize';

/**
 * MySQL/MariaDB only: addresses, usernames and third-party subjects compared byte for byte
 * (docs/security.md "Look-alike addresses"). The tables were created in utf8mb4_unicode_ci, which
 * equates "é" and "e", "ä" and "a", full-width and plain letters: a look-up or a unique index on
 * admin@bt-désk.example then found, or refused because of, admin@bt-desk.example. bt stores
 * addresses and usernames in lower case, so a binary collation keeps SQLite's behaviour: equal
 * only when the same characters. Tightening a collation frees values, it never makes two rows
 * collide, so the change cannot fail on existing data. SQLite compares bytes already.
 */
const BIN = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
const CI = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';

const columns = (collation: string) => [
  `ALTER TABLE users MODIFY username VARCHAR(64) ${collation} NULL, MODIFY email VARCHAR(191) ${collation} NULL, MODIFY deleted_email VARCHAR(191) ${collation} NULL`,
  `ALTER TABLE user_identities MODIFY subject VARCHAR(191) ${collation} NOT NULL, MODIFY email VARCHAR(191) ${collation} NULL`,
  `ALTER TABLE email_recreations MODIFY email VARCHAR(191) ${collation} NOT NULL`,
];

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  for (const statement of columns(BIN)) await qi.sequelize.query(statement);
}

/** Back to the case- and accent-blind collation; refused by MySQL if look-alike rows now exist. */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  if (qi.sequelize.getDialect() !== 'mysql') return;
  for (const statement of columns(CI)) await qi.sequelize.query(statement);
}
