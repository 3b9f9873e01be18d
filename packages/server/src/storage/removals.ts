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

/** The owed removal done now: true when the files are gone; never throws (a failure is logged and left to the sweep). */
export async function settleRemoval(deps: RemovalDeps, id: number, path: string, what: string): Promise<boolean> {
  try {
    await deps.storage.remove(path);
  } catch (err) {
    const message = errorText(err);
    deps.log(`storage: ${what}: files left at ${path} (${message}); removal retried by the sweep`);
    await record(deps, id, 1, message).catch((e) => deps.log(`storage: removal of ${path} not rescheduled: ${errorText(e)}`));
    return false;
  }
  await deps.db.transaction((t) => deps.db.models.StorageRemoval.destroy({ where: { id }, transaction: t })).catch((e) =>
    // The line stays: the next sweep removes nothing (already gone) and drops it.
    deps.log(`storage: removal of ${path} done, its line not dropped: ${errorText(e)}`),
  );
  return true;
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
    if (result && (await BacktestRun.count({ where: { userId: Number(result[1]), folder: result[2] } })) > 0) {
      deps.log(`storage: ${line.path} not removed: a new run uses this folder now`);
      await deps.db.transaction((t) => StorageRemoval.destroy({ where: { id: line.id }, transaction: t }));
      continue;
    }
    try {
      await deps.storage.remove(line.path);
    } catch (err) {
      failed++;
      const attempts = line.attempts + 1;
      deps.log(`storage: files left at ${line.path}: removal failed again (attempt ${attempts}): ${errorText(err)}`);
      await record(deps, line.id, attempts, errorText(err), now);
      continue;
    }
    removed++;
    deps.log(`storage: files left at ${line.path} removed (attempt ${line.attempts + 1})`);
    await deps.db.transaction((t) => StorageRemoval.destroy({ where: { id: line.id }, transaction: t }));
  }
  return { removed, failed };
}

async function record(deps: RemovalDeps, id: number, attempts: number, error: string, now = new Date()): Promise<void> {
  const nextAt = new Date(now.getTime() + nextDelay(attempts));
  await deps.db.transaction((t) => deps.db.models.StorageRemoval.update({ attempts, lastError: error.slice(0, 500), nextAt }, { where: { id }, transaction: t }));
}

const errorText = (err: unknown) => String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 300);
