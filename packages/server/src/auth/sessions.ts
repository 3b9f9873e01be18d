import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { User } from '../db/models.js';
import { hashSecret, newSecret } from './secrets.js';

/**
 * Session keys: one random key per sign-in, given to the client once, stored as its SHA-256.
 * A key lives until the account is deleted or its password is reset.
 */
export class Sessions {
  constructor(private readonly db: Database) {}

  /** Creates a key for the user; returns the clear key (shown once) and its row id. */
  async issue(userId: number, transaction?: Transaction): Promise<{ key: string; keyId: number }> {
    const key = newSecret();
    const row = await this.db.models.ApiKey.create({ userId, keyHash: hashSecret(key) }, { transaction });
    return { key, keyId: row.id };
  }

  /** The live user behind a key, or null. */
  async authenticate(key: string): Promise<{ user: User; keyId: number } | null> {
    if (!key || key.length > 200) return null;
    const { ApiKey, User } = this.db.models;
    const row = await ApiKey.findOne({ where: { keyHash: hashSecret(key) } });
    if (!row) return null;
    const user = await User.findByPk(row.userId);
    if (!user || user.deletedAt) return null;
    return { user, keyId: row.id };
  }

  /** Revokes every key of the user, except `keepKeyId` when given. */
  async revokeAll(userId: number, transaction: Transaction, keepKeyId?: number): Promise<void> {
    const { ApiKey } = this.db.models;
    const keys = await ApiKey.findAll({ where: { userId }, attributes: ['id'], transaction });
    const ids = keys.map((k) => k.id).filter((id) => id !== keepKeyId);
    if (ids.length) await ApiKey.destroy({ where: { id: ids }, transaction });
  }
}
