import { Op, type Transaction } from 'sequelize';
import { HttpError, unauthorized } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Storage } from '../storage/types.js';

/**
 * How much one account may keep and write through imports and generations, which cost no credit
 * (docs/strategies-python.md, "Limits per account"): each one stores up to the file limit twice
 * (the strategy and the archive's copy), failures once (the archive's copy).
 */
export interface StrategyQuotaLimits {
  /** Personal strategies one account keeps at once (409 past it: delete some first). */
  maxPerUser: number;
  /** Imports and generations one account starts per UTC day, failed ones included (429 past it). */
  dailyAttempts: number;
  /** Failed imports and generations of one account the archive keeps from before today (the newest). */
  failedKept: number;
}

export const DEFAULT_STRATEGY_QUOTA: StrategyQuotaLimits = { maxPerUser: 100, dailyAttempts: 100, failedKept: 20 };

export const QUOTA_MESSAGES = {
  tooMany: (max: number) => `Tu as atteint le maximum de ${max} stratégies personnelles. Supprimes-en avant d'en importer ou d'en générer une autre.`,
  daily: (max: number) => `Limite quotidienne atteinte : ${max} imports ou générations de stratégie par jour. Réessaie demain.`,
} as const;

/**
 * The account's counts, read from the database so they hold across processes. `check` refuses
 * early, before any sandbox run or chat call; `guard` runs again inside the transaction that
 * writes the row, with the account's row locked (SELECT ... FOR UPDATE on MariaDB; SQLite write
 * transactions are serialized already), so requests racing past `check` cannot overshoot.
 */
export class StrategyQuota {
  constructor(private readonly deps: { db: Database; storage: Storage; clock: Clock; limits: StrategyQuotaLimits; log?: (message: string) => void }) {}

  /** 409 or 429 (French) when the account cannot start an import or generation now. */
  async check(userId: number, transaction?: Transaction): Promise<void> {
    const { models } = this.deps.db;
    const { maxPerUser, dailyAttempts } = this.deps.limits;
    const kept = await models.UserStrategy.count({ where: { userId }, transaction });
    if (kept >= maxPerUser) throw new HttpError(409, QUOTA_MESSAGES.tooMany(maxPerUser));
    if ((await this.attemptsToday(userId, transaction)) >= dailyAttempts) throw new HttpError(429, QUOTA_MESSAGES.daily(dailyAttempts));
  }

  /** Inside the writing transaction: locks the account, then checks again. */
  async guard(t: Transaction, userId: number): Promise<void> {
    await this.lockLive(t, userId);
    await this.check(userId, t);
  }

  /** Inside the writing transaction of a failure: locks the account, then the daily count only. */
  async guardAttempt(t: Transaction, userId: number): Promise<void> {
    await this.lockLive(t, userId);
    const { dailyAttempts } = this.deps.limits;
    if ((await this.attemptsToday(userId, t)) >= dailyAttempts) throw new HttpError(429, QUOTA_MESSAGES.daily(dailyAttempts));
  }

  /**
   * Locks the account's row; 401 when it was deleted meanwhile. An import that passed its sign-in
   * before the account's deletion waits here on the deletion's lock, and must not write a
   * strategy or an archive entry after the deletion removed them (users/purge.ts).
   */
  private async lockLive(t: Transaction, userId: number): Promise<void> {
    const user = await this.deps.db.models.User.findOne({ where: { id: userId }, attributes: ['id', 'deletedAt'], transaction: t, lock: t.LOCK.UPDATE });
    if (!user || user.deletedAt) throw unauthorized(MSG.invalidApiKey);
  }

  /**
   * Every archive entry counts (one per import or generation, kept or failed, deleted by the admin
   * or not): failures are only pruned from before today, so today's count stays whole.
   */
  private attemptsToday(userId: number, transaction?: Transaction): Promise<number> {
    return this.deps.db.models.ArchivedStrategy.count({ where: { userId, createdAt: { [Op.gte]: this.dayStart() } }, transaction });
  }

  private dayStart(): Date {
    const now = this.deps.clock.now();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  }

  /**
   * Keeps the account's newest `failedKept` failures from before today (today's are bounded by the
   * daily count); older ones go with their files. A file the storage refuses to remove is logged
   * and its row kept, so a later prune tries again.
   */
  async pruneFailures(userId: number): Promise<void> {
    const { db, storage, limits } = this.deps;
    const old = await db.models.ArchivedStrategy.findAll({
      where: { userId, status: 'failed', createdAt: { [Op.lt]: this.dayStart() } },
      order: [['id', 'DESC']],
      offset: limits.failedKept,
      limit: 500,
      attributes: ['id', 'path'],
    });
    for (const row of old) {
      try {
        if (row.path) await storage.remove(row.path.slice(0, row.path.lastIndexOf('/')));
        await db.transaction((t) => db.models.ArchivedStrategy.destroy({ where: { id: row.id }, transaction: t }));
      } catch (err) {
        (this.deps.log ?? console.error)(`strategy archive: failed entry ${row.id} not pruned: ${(err as Error).message}`);
      }
    }
  }
}
