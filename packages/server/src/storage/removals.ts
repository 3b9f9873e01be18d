import { Op, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { Storage } from './types.js';

export interface RemovalDeps {
  db: Database;
  storage: Storage;
  log: (message: string) => void;
}

/** The first retry a minute after the failure, then twice as long each time, at most a day. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 24 * 3600_000;
const nextDelay = (attempts: number) => Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);

/**
 * Files left behind (docs/server.md "Files left behind"). Deleting what a row names (a result's
 * folder, a personal strategy's file, the folder of a run given up) is two steps that cannot share
 * a transaction: the row in the database, the files in the storage (a disk, a bucket). The row goes
 * first, so the user's deletion stands whatever the storage does; in the same transaction the
 * removal is owed (`owe`), a line of `storage_removals`. Once committed the files are removed
 * (`settle`): gone, the line goes; refused (S3 answering 500, a disk error), the path is logged and
 * the line stays, and the sweep (`retryRemovals`, every minute with the stale-run sweep) tries
 * again later, a minute after, then twice as long each time (at most a day). A process killed
 * between the two steps leaves its line too.
 */
export async function oweRemoval(db: Database, path: string, t: Transaction): Promise<number> {
  const now = new Date();
  const line = await db.models.StorageRemoval.create({ path, attempts: 0, lastError: null, nextAt: new Date(now.getTime() + RETRY_BASE_MS), createdAt: now }, { transaction: t });
  return line.id;
}

/**
 * The owed removal done now: true when the files are gone (or a publication into the folder
 * removed them first); never throws (a failure is logged and left to the sweep). The removal runs
 * under the lock of its line (`withOwed`), which a publication into the same folder takes too.
 */
export async function settleRemoval(deps: RemovalDeps, id: number, path: string, what: string): Promise<boolean> {
  let refused: unknown = null;
  try {
    await withOwed(deps.db, id, async () => {
      refused = null;
      try {
        await deps.storage.remove(path);
      } catch (err) {
        refused = err;
        return false;
      }
      return true;
    });
  } catch (e) {
    // The database failed around the removal: the line stays (committed with the row), the sweep
    // meets it again.
    deps.log(`storage: ${what}: removal of ${path} not settled: ${errorText(e)}; retried by the sweep`);
    return false;
  }
  if (refused !== null) {
    const message = errorText(refused);
    deps.log(`storage: ${what}: files left at ${path} (${message}); removal retried by the sweep`);
    await record(deps, id, 1, message).catch((e) => deps.log(`storage: removal of ${path} not rescheduled: ${errorText(e)}`));
    return false;
  }
  return true;
}

/**
 * `remove` under the lock of the owed removal's line, in one transaction: the line read FOR UPDATE
 * on MySQL (by its primary key: no gap lock), SQLite's write lock on SQLite; skipped when the line
 * is gone (settled by someone else, a publication into the folder among them), and the line
 * dropped when `remove` answers true. A folder freed by a run's deletion can be taken by the
 * user's next run at once (folder names are unique among the rows only), and that run publishes
 * into it under the same lock (`settleOwedAt`, backtests/finish.ts), so a removal never deletes
 * the files of a run published after the line was written (docs/queue.md, "A folder freed and
 * taken again").
 */
async function withOwed(db: Database, id: number, remove: (t: Transaction) => Promise<boolean>): Promise<void> {
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  await db.transaction(async (t) => {
    const raw = db.raw(t);
    const owed = await raw.all(`SELECT ${q('id')} FROM ${q('storage_removals')} WHERE ${q('id')} = ${Number(id)}${db.dialect === 'mysql' ? ' FOR UPDATE' : ''}`);
    if (owed.length === 0) return;
    if (await remove(t)) await raw.run(`DELETE FROM ${q('storage_removals')} WHERE ${q('id')} = ${Number(id)}`);
  });
}

/**
 * Inside a publication's transaction, before its files reach `path`: the removals still owed at
 * that path (the folder of a run given up or deleted, whose name this run took) done first, each
 * under its line's lock, and their lines dropped. So a removal owed before the publication can
 * never land after it. A removal the storage refuses makes the publication fail (its run is then
 * given up and refunded, docs/queue.md "Failures"): publishing over files that are still owed a
 * removal would leave them to a sweep that deletes the new ones with them.
 */
export async function settleOwedAt(db: Database, storage: Storage, t: Transaction, path: string): Promise<number> {
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  const raw = db.raw(t);
  // A plain read first (no lock, no gap lock on MySQL): the table is empty but for removals not
  // done yet. A line written for this folder was committed before this run's row existed.
  const lines = await raw.all<{ id: number }>(`SELECT ${q('id')} FROM ${q('storage_removals')} WHERE ${q('path')} = ${db.literal(path)}`);
  let settled = 0;
  for (const { id } of lines) {
    if (db.dialect === 'mysql' && (await raw.all(`SELECT ${q('id')} FROM ${q('storage_removals')} WHERE ${q('id')} = ${Number(id)} FOR UPDATE`)).length === 0) continue;
    await storage.remove(path);
    await raw.run(`DELETE FROM ${q('storage_removals')} WHERE ${q('id')} = ${Number(id)}`);
    settled++;
  }
  return settled;
}

/**
 * Files a failed write leaves (a strategy's .py whose row was refused, an archive entry's folder):
 * owed, then removed now, so a storage that refuses leaves them to the sweep rather than to no one.
 * With the database away too (often why the row failed), removed now or only logged.
 */
export async function removeLeftover(deps: RemovalDeps, path: string, what: string): Promise<void> {
  let id: number | null = null;
  try {
    id = await deps.db.transaction((t) => oweRemoval(deps.db, path, t));
  } catch {
    // No line to owe it with: the removal below is the only attempt.
  }
  if (id !== null) {
    await settleRemoval(deps, id, path, what);
    return;
  }
  await deps.storage.remove(path).catch((err) => deps.log(`storage: ${what}: files left at ${path} (${errorText(err)}); not owed (database away)`));
}

/**
 * The removals due, oldest first, at most `limit`. A result's folder whose name a new run of the
 * same user took meanwhile (folder names are unique among a user's rows, so a deleted one can be
 * reused) is not removed: the line is dropped, the folder belongs to the new run.
 */
export async function retryRemovals(deps: RemovalDeps, options: { now?: Date; limit?: number } = {}): Promise<{ removed: number; failed: number }> {
  const now = options.now ?? new Date();
  const { StorageRemoval, BacktestRun } = deps.db.models;
  const due = await StorageRemoval.findAll({ where: { nextAt: { [Op.lte]: now } }, order: [['nextAt', 'ASC'], ['id', 'ASC']], limit: options.limit ?? 200 });
  let removed = 0;
  let failed = 0;
  for (const line of due) {
    const result = /^results\/(\d+)\/([^/]+)$/.exec(line.path);
    let refused: unknown = null;
    let outcome = 'gone' as 'removed' | 'taken' | 'gone';
    try {
      // Under the line's lock, as settleRemoval: a publication into the folder waits, or has
      // removed it and dropped the line already.
      await withOwed(deps.db, line.id, async (t) => {
        refused = null;
        outcome = 'gone';
        if (result && (await BacktestRun.count({ where: { userId: Number(result[1]), folder: result[2] }, transaction: t })) > 0) {
          // Kept for lines owed before publications settled them (they would remove a newer run's
          // files published over them); a run that holds the name now settles the line itself.
          outcome = 'taken';
          return true;
        }
        try {
          await deps.storage.remove(line.path);
        } catch (err) {
          refused = err;
          return false;
        }
        outcome = 'removed';
        return true;
      });
    } catch (err) {
      failed++;
      deps.log(`storage: files left at ${line.path}: removal not settled (database): ${errorText(err)}`);
      continue;
    }
    if (refused !== null) {
      failed++;
      const attempts = line.attempts + 1;
      deps.log(`storage: files left at ${line.path}: removal failed again (attempt ${attempts}): ${errorText(refused)}`);
      await record(deps, line.id, attempts, errorText(refused), now);
      continue;
    }
    if (outcome === 'taken') deps.log(`storage: ${line.path} not removed: a new run uses this folder now`);
    if (outcome === 'removed') {
      removed++;
      deps.log(`storage: files left at ${line.path} removed (attempt ${line.attempts + 1})`);
    }
  }
  return { removed, failed };
}

async function record(deps: RemovalDeps, id: number, attempts: number, error: string, now = new Date()): Promise<void> {
  const nextAt = new Date(now.getTime() + nextDelay(attempts));
  await deps.db.transaction((t) => deps.db.models.StorageRemoval.update({ attempts, lastError: error.slice(0, 500), nextAt }, { where: { id }, transaction: t }));
}

const errorText = (err: unknown) => String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 300);
