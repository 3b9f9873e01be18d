import { RECREATE_ACCOUNT_LIMIT } from '@bt/core/catalogue';
import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';

export class RecreateLimitError extends Error {
  constructor(readonly email: string) {
    super(`recreate limit reached for ${email}`);
    this.name = 'RecreateLimitError';
  }
}

/**
 * Counts, per e-mail address, the accounts deleted and the accounts created again after a
 * deletion. Creating an account for an address that had a deleted one is a re-creation; past
 * RECREATE_ACCOUNT_LIMIT of them the address cannot get a new account (spec 1 §8-§9).
 */
export class Recreations {
  constructor(private readonly db: Database) {}

  /** Call in the transaction that creates the account: refuses or counts a re-creation. */
  async beforeCreate(email: string, transaction: Transaction): Promise<void> {
    const row = await this.db.models.EmailRecreation.findByPk(email, { transaction });
    if (!row || row.deletions === 0) return;
    if (row.recreations >= RECREATE_ACCOUNT_LIMIT) throw new RecreateLimitError(email);
    await row.update({ recreations: row.recreations + 1 }, { transaction });
  }

  /** Whether the next creation for this address would be refused (no change). */
  async isBlocked(email: string, transaction?: Transaction): Promise<boolean> {
    const row = await this.db.models.EmailRecreation.findByPk(email, { transaction });
    return !!row && row.deletions > 0 && row.recreations >= RECREATE_ACCOUNT_LIMIT;
  }

  async recordDeletion(email: string, transaction: Transaction): Promise<void> {
    const { EmailRecreation } = this.db.models;
    const row = await EmailRecreation.findByPk(email, { transaction });
    if (row) await row.update({ deletions: row.deletions + 1 }, { transaction });
    else await EmailRecreation.create({ email, deletions: 1, recreations: 0 }, { transaction });
  }
}
