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
 * RECREATE_ACCOUNT_LIMIT of them the address cannot get a new account (docs/product.md §1.8-§1.9).
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

  /** The counters (the admin's Maintenance tab), most re-creations first. */
  async list(page: { limit: number; offset: number }) {
    const { EmailRecreation } = this.db.models;
    const [total, rows] = await Promise.all([
      EmailRecreation.count(),
      EmailRecreation.findAll({ order: [['recreations', 'DESC'], ['deletions', 'DESC'], ['email', 'ASC']], limit: page.limit, offset: page.offset }),
    ]);
    return {
      counts: rows.map((r) => ({ email: r.email, deletions: r.deletions, recreations: r.recreations, blocked: r.deletions > 0 && r.recreations >= RECREATE_ACCOUNT_LIMIT, updated_at: r.updatedAt.toISOString() })),
      total,
      limit: RECREATE_ACCOUNT_LIMIT,
    };
  }

  /** Forgets the counters of one address, or of all (null); returns how many addresses still have one. */
  async reset(email: string | null): Promise<{ removed: number; left: number }> {
    const { EmailRecreation } = this.db.models;
    const removed = await this.db.transaction((t) => EmailRecreation.destroy({ where: email === null ? {} : { email }, transaction: t }));
    return { removed, left: await EmailRecreation.count() };
  }
}
