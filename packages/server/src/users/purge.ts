import type { Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import { AccountGoneError, LedgerError, type CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import { oweRemoval, settleRemoval } from '../storage/removals.js';
import type { Storage } from '../storage/types.js';
import { eraseExpired } from './erasure.js';

export interface PurgeDeps {
  db: Database;
  storage: Storage;
  log: (message: string) => void;
  /** Refunds the runs still running (the charge of a result that will never be delivered). */
  ledger: Pick<CreditLedger, 'refund'>;
  /**
   * Takes the refunded runs' jobs out of the Redis queue when no worker holds them yet
   * (QueueRunner.dropWaiting): their requests are answered at once instead of at the job timeout.
   */
  dropWaitingRuns?: (runIds: readonly string[]) => Promise<void>;
  /** The public top list's cache: a deleted account's results leave it at once. */
  forgetPublicListing?: () => void;
  /** The app's clock: with it, the sweep also erases the accounts deleted 12 months ago (users/erasure.ts). */
  clock?: Clock;
}

/** One removal the deletion owes the storage (a line of `storage_removals`). */
interface Owed {
  id: number;
  path: string;
}

/** What is left to do after the deletion's commit: the storage's removals, the refunded runs' jobs. */
export interface Leftovers {
  removals: Owed[];
  runIds: string[];
}

/** Folders a deletion removes before it answers; the sweep removes the others (200 a minute). */
export const SETTLED_NOW = 50;

/** The tables `owe` empties of the account's rows. */
const OWNING_TABLES = ['user_strategies', 'strategy_archive', 'user_csvs', 'backtest_runs', 'api_keys', 'user_tokens', 'user_identities'] as const;

/** An archive entry's own folder, as StrategyArchive.record names it: `archive/{type}/{day}/{stamp}-{hex}`. */
const ARCHIVE_FOLDER = /^archive\/[a-z]+\/\d{8}\/[0-9]+-[0-9a-f]+$/;

/**
 * What a deleted account leaves behind (docs/server.md "Deleting an account"): its personal
 * strategies, its entries of the strategy archive, its CSVs (library purchases, extractions), its
 * runs with their results — rows and files. `owe` runs in the deletion's transaction, after the
 * account's row is archived (so an import or a run waiting on that row's lock finds it deleted):
 * the rows go and each folder's removal is owed (storage/removals.ts), so a storage that refuses
 * leaves the files to the retried sweep, never a half-deleted account. `settle`, after the commit,
 * removes the files now. Kept on purpose: the archived `users` row, the credit ledger, payments and
 * invoices (accounting), the statistics' events, support messages.
 */
export class AccountPurge {
  constructor(private readonly deps: PurgeDeps) {}

  async owe(userId: number, t: Transaction): Promise<Leftovers> {
    const { db } = this.deps;
    const { UserStrategy, ArchivedStrategy, UserCsv, BacktestRun, ApiKey, UserToken, UserIdentity } = db.models;
    const where = { userId };
    // Removed by the deletion already (Profiles.deleteAccount); again for the sweep's accounts.
    for (const model of [ApiKey, UserToken, UserIdentity] as const) await (model as typeof ApiKey).destroy({ where, transaction: t });
    const archived = await ArchivedStrategy.findAll({ where, attributes: ['id', 'path'], transaction: t });
    // The account's own folders; a library purchase names a file of the shared library, not one of these.
    const paths = new Set([`strategies/${userId}`, `results/${userId}`, `extractions/${userId}`]);
    for (const entry of archived) {
      if (!entry.path) continue;
      const folder = entry.path.slice(0, entry.path.lastIndexOf('/'));
      // Only the entry's own folder: a path of another shape names its file alone, never a parent.
      paths.add(ARCHIVE_FOLDER.test(folder) ? folder : entry.path);
    }
    await UserStrategy.destroy({ where, transaction: t });
    await ArchivedStrategy.destroy({ where, transaction: t });
    await UserCsv.destroy({ where, transaction: t });
    // Running ones too, refunded as a run given up is (backtests/finish.ts cancelRun; a refund
    // lands on the archived account, docs/server.md "Credits"): the run that finishes later finds
    // its row gone and removes its folder (backtests/service.ts, jobs/worker.ts). Refunded here
    // whichever runs it, a worker process or a thread; the thread's own refund finds it done.
    // Read locked: a run a worker marked done just before is not refunded.
    const running = await BacktestRun.findAll({ where: { userId, status: 'running' }, attributes: ['id', 'runId'], transaction: t, lock: t.LOCK.UPDATE });
    for (const run of running) {
      try {
        await this.deps.ledger.refund(userId, run.runId, { transaction: t });
      } catch (err) {
        // A run that was never charged (no spend under its id) has nothing to give back.
        if (!(err instanceof LedgerError) || err instanceof AccountGoneError) throw err;
      }
    }
    await BacktestRun.destroy({ where, transaction: t });
    const removals: Owed[] = [];
    for (const path of paths) removals.push({ id: await oweRemoval(db, path, t), path });
    return { removals, runIds: running.map((run) => run.runId) };
  }

  /**
   * The deleted accounts that still own rows (deleted before the purge existed, or reached by a
   * write that slipped past the deletion), purged as a deletion would: at most `limit` of them, the
   * sweep's next round takes the rest. Each one in its own transaction, the account's row locked
   * and its rows counted again, so two API processes sweeping at once purge it once. Then the
   * accounts deleted more than 12 months ago are erased (users/erasure.ts), as many a round.
   */
  async sweepDeleted(limit = 20): Promise<number> {
    const { db } = this.deps;
    const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
    const owns = OWNING_TABLES.map((table) => `EXISTS (SELECT 1 FROM ${q(table)} o WHERE o.${q('user_id')} = u.${q('id')})`).join(' OR ');
    const [rows] = await db.sequelize.query(`SELECT u.${q('id')} AS id FROM ${q('users')} u WHERE u.${q('deleted_at')} IS NOT NULL AND (${owns}) ORDER BY u.${q('id')} LIMIT ${Math.max(1, Math.floor(limit))}`);
    let purged = 0;
    for (const { id } of rows as { id: number | string }[]) {
      const userId = Number(id);
      const owed = await db.transaction(async (t) => {
        const user = await db.models.User.findOne({ where: { id: userId }, attributes: ['id', 'deletedAt'], transaction: t, lock: t.LOCK.UPDATE });
        if (!user?.deletedAt || !(await this.ownsRows(userId, t))) return null;
        return this.owe(userId, t);
      });
      if (!owed) continue;
      purged++;
      this.deps.log(`account ${userId}: deleted, its strategies, archive entries, CSVs and results purged by the sweep`);
      await this.settle(userId, owed);
    }
    const { clock } = this.deps;
    if (clock) await eraseExpired({ db, clock, log: this.deps.log }, limit);
    return purged;
  }

  private async ownsRows(userId: number, t: Transaction): Promise<boolean> {
    const { UserStrategy, ArchivedStrategy, UserCsv, BacktestRun, ApiKey, UserToken, UserIdentity } = this.deps.db.models;
    for (const model of [UserStrategy, ArchivedStrategy, UserCsv, BacktestRun, ApiKey, UserToken, UserIdentity] as const) {
      if ((await (model as typeof UserStrategy).count({ where: { userId }, transaction: t })) > 0) return true;
    }
    return false;
  }

  /**
   * After the commit: the files removed now, at most SETTLED_NOW folders (an account of years holds
   * thousands of archive entries, each its own folder; removing them all would hold the request for
   * minutes on a bucket): the rest, and any the storage refuses, stay owed to the sweep.
   */
  async settle(userId: number, { removals, runIds }: Leftovers): Promise<void> {
    this.deps.forgetPublicListing?.();
    if (runIds.length > 0) await this.deps.dropWaitingRuns?.(runIds);
    for (const { id, path } of removals.slice(0, SETTLED_NOW)) await settleRemoval(this.deps, id, path, `account ${userId} deleted`);
    if (removals.length > SETTLED_NOW) this.deps.log(`storage: account ${userId} deleted: ${removals.length - SETTLED_NOW} more folders left to the removals sweep`);
  }
}
