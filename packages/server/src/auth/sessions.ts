import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { User } from '../db/models.js';
import { instanceFromRow, selectColumns } from '../db/rows.js';
import { hashSecret, newSecret } from './secrets.js';

/** How often the last-use time of a key is written: enough for an idle limit counted in days. */
const TOUCH_INTERVAL_MS = 3600_000;

/**
 * Session keys: one random key per sign-in, given to the client once, stored as its SHA-256.
 * A key ends at logout, after `idleMs` without a request, on a password reset or change, and
 * when the account is deleted (docs/security.md, "Sessions").
 */
export class Sessions {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly idleMs: number,
  ) {}

  /** Creates a key for the user; returns the clear key (shown once) and its row id. */
  async issue(userId: number, transaction?: Transaction): Promise<{ key: string; keyId: number }> {
    const key = newSecret();
    const row = await this.db.models.ApiKey.create({ userId, keyHash: hashSecret(key), lastUsedAt: this.clock.now() }, { transaction });
    return { key, keyId: row.id };
  }

  /** The live user behind a key, or null (unknown, idle too long — then deleted —, or a deleted account). */
  async authenticate(key: string): Promise<{ user: User; keyId: number } | null> {
    if (!key || key.length > 200) return null;
    const { ApiKey, User } = this.db.models;
    // The key and its user in one statement: this runs before every signed-in request.
    const [found] = await this.db.sequelize.query<Record<string, unknown>>(`${this.keyQuery()} ${this.db.literal(hashSecret(key))}`, { type: QueryTypes.SELECT, raw: true });
    if (!found) return null;
    const row = instanceFromRow(ApiKey, found, 'k_');
    const now = this.clock.now().getTime();
    const lastUsed = (row.lastUsedAt ?? row.createdAt).getTime();
    if (now - lastUsed > this.idleMs) {
      await ApiKey.destroy({ where: { id: row.id } });
      return null;
    }
    if (found.u_id === null) return null;
    const user = instanceFromRow(User, found, 'u_');
    if (user.deletedAt) return null;
    if (now - lastUsed > TOUCH_INTERVAL_MS) {
      // Guarded on the old value: of two concurrent requests one writes, and none waits on the other.
      await ApiKey.update({ lastUsedAt: new Date(now) }, { where: { id: row.id, lastUsedAt: row.lastUsedAt ?? { [Op.is]: null } } });
    }
    return { user, keyId: row.id };
  }

  private keyQuerySql: string | undefined;

  /** The key's row and its user's (LEFT JOIN: an idle key is deleted even without its user), up to the hash. */
  private keyQuery(): string {
    if (this.keyQuerySql) return this.keyQuerySql;
    const { ApiKey, User } = this.db.models;
    const q = (name: string) => this.db.sequelize.getQueryInterface().quoteIdentifier(name);
    this.keyQuerySql =
      `SELECT ${selectColumns(ApiKey, 'k', 'k_', q)}, ${selectColumns(User, 'u', 'u_', q)} ` +
      `FROM ${q('api_keys')} ${q('k')} LEFT JOIN ${q('users')} ${q('u')} ON ${q('u')}.${q('id')} = ${q('k')}.${q('user_id')} WHERE ${q('k')}.${q('key_hash')} =`;
    return this.keyQuerySql;
  }

  /** Ends one session (logout). */
  async revoke(keyId: number): Promise<void> {
    await this.db.models.ApiKey.destroy({ where: { id: keyId } });
  }

  /** Revokes every key of the user, except `keepKeyId` when given. */
  async revokeAll(userId: number, transaction: Transaction, keepKeyId?: number): Promise<void> {
    const { ApiKey } = this.db.models;
    const keys = await ApiKey.findAll({ where: { userId }, attributes: ['id'], transaction });
    const ids = keys.map((k) => k.id).filter((id) => id !== keepKeyId);
    if (ids.length) await ApiKey.destroy({ where: { id: ids }, transaction });
  }
}
