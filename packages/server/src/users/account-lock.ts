import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';

/**
 * On MySQL/MariaDB, locks the account's row by its primary key, as the first lock of a transaction
 * that also writes the account's other rows: every such transaction (a charge, an address change,
 * a deletion, a run given up) then takes the account's row before the rest, in one order, where
 * opposite orders deadlocked (docs/server.md, "Sign-ups at once on MariaDB"). A guarded UPDATE of
 * the row is not enough: on a small table MariaDB reads it through the `deleted_at` index first.
 * SQLite runs one write transaction at a time: nothing to lock.
 */
export async function lockAccountRow(db: Database, userId: number, t: Transaction): Promise<void> {
  if (db.dialect === 'mysql') await db.models.User.findByPk(userId, { attributes: ['id'], transaction: t, lock: t.LOCK.UPDATE });
}
