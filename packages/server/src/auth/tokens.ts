import { Op, type Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { TokenDelivery, UserToken, UserTokenPurpose } from '../db/models.js';
import { hashSecret, newSecret } from './secrets.js';

/** Single-use, expiring tokens sent by e-mail (verification, password reset). */
export class OneTimeTokens {
  constructor(private readonly db: Database, private readonly clock: Clock) {}

  /** A new token for the purpose; earlier unused ones of the same purpose stop working. */
  async issue(userId: number, purpose: UserTokenPurpose, ttlMs: number, transaction: Transaction, delivery: TokenDelivery = 'mail'): Promise<string> {
    const { UserToken } = this.db.models;
    const now = this.clock.now();
    // Only when there is one to end: on MariaDB the UPDATE locks the index gap where this user's
    // tokens would be, even when there are none, and for new accounts that gap is the same one (the
    // highest ids): two sign-ups at once each held it, then each waited for the other to insert,
    // a deadlock for 4 sign-ups in 10 at 12 at once (docs/server.md, "Sign-ups at once on MariaDB").
    // The count is a plain read, which locks nothing.
    const unused = await UserToken.count({ where: { userId, purpose, usedAt: null }, transaction });
    if (unused > 0) await UserToken.update({ usedAt: now }, { where: { userId, purpose, usedAt: null }, transaction });
    const token = newSecret();
    await UserToken.create({ userId, purpose, tokenHash: hashSecret(token), expiresAt: new Date(now.getTime() + ttlMs), delivery }, { transaction });
    return token;
  }

  /**
   * Marks the token used and returns its row, or null when it is unknown, expired, already used
   * or of another purpose. The guarded UPDATE makes two concurrent uses end with one winner.
   */
  async consume(token: string, purpose: UserTokenPurpose, transaction: Transaction): Promise<UserToken | null> {
    if (!token || token.length > 200) return null;
    const { UserToken } = this.db.models;
    const now = this.clock.now();
    const row = await UserToken.findOne({ where: { tokenHash: hashSecret(token), purpose }, transaction });
    if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
    const [changed] = await UserToken.update({ usedAt: now }, { where: { id: row.id, usedAt: null, expiresAt: { [Op.gt]: now } }, transaction });
    return changed === 1 ? row : null;
  }

  /**
   * Ends the account's unused tokens (of these purposes, or all): a password change leaves no
   * reset link behind, an address change no link sent to the old address (docs/security.md).
   */
  async revokeAll(userId: number, transaction: Transaction, purposes?: readonly UserTokenPurpose[]): Promise<void> {
    const where = { userId, usedAt: null, ...(purposes ? { purpose: [...purposes] } : {}) };
    await this.db.models.UserToken.update({ usedAt: this.clock.now() }, { where, transaction });
  }

  /** The row of a token without using it (to tell "already used" from "unknown"). */
  find(token: string, purpose: UserTokenPurpose): Promise<UserToken | null> {
    return this.db.models.UserToken.findOne({ where: { tokenHash: hashSecret(token), purpose } });
  }
}
