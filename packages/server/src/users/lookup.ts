import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { User } from '../db/models.js';

// Accounts by address or username, compared exactly (docs/security.md "Look-alike addresses").
// MySQL's utf8mb4_unicode_ci collation, which the tables were created with, equates "é" and "e",
// "ä" and "a", full-width and plain letters: a database match alone could be another person's
// account, and a password reset requested for admin@bt-désk.example reached admin@bt-desk.example.
// Migration 0007 makes these columns binary; this check holds whatever the column's collation.

/** The account whose stored address is exactly `email` (already normalised), or null. */
export async function userWithEmail(db: Database, email: string, transaction?: Transaction): Promise<User | null> {
  const user = await db.models.User.findOne({ where: { email }, transaction });
  return user !== null && user.email === email ? user : null;
}

/** The account whose stored username is exactly `username` (already normalised), or null. */
export async function userWithUsername(db: Database, username: string, transaction?: Transaction): Promise<User | null> {
  const user = await db.models.User.findOne({ where: { username }, transaction });
  return user !== null && user.username === username ? user : null;
}
