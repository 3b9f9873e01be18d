import { candlesToIpc, type Candles } from '@bt/core/candles';
import type { TimeframeKey } from '@bt/core/catalogue';
import { workbookFileName } from '@bt/core/report';
import { lowerBound } from '@bt/core/simulate';
import type { Clock } from '../clock/index.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import type { BacktestRun } from '../db/models.js';
import { sliceCandles } from '../datasets/series.js';
import { backtestEvent, eventInsertSql, eventLiterals, type EventLog } from '../events/log.js';
import { chartCandlesPath } from '../results/chart.js';
import { runSummary } from '../results/summary.js';
import { oweRemoval, settleOwedAt, settleRemoval } from '../storage/removals.js';
import type { StagedFile, Storage } from '../storage/types.js';
import type { EngineResult } from '../jobs/task.js';
import { lockAccountRow } from '../users/account-lock.js';

/** The run's row is no longer 'running': another party cancelled (and refunded) it. */
export class RunNotRunning extends Error {
  constructor(readonly runId: string) {
    super(`run ${runId} is no longer running`);
    this.name = 'RunNotRunning';
  }
}

export interface FinishDeps {
  db: Database;
  storage: Storage;
  events: EventLog;
  clock: Clock;
}

/**
 * Stores a run's result: the workbook (and, for an uploaded file, the period's candles for the
 * result view's chart) staged (written under staging names, at no result's path) while the row
 * turns 'done' with its event, both at once; then the files published to the run's folder, only
 * while the run still owns it (publishRun). The row changes only while it is still 'running'
 * (RunNotRunning otherwise): with a job queue the API may have given up on the run and refunded
 * it, and then a late worker must not turn it into a result, nor put a file in its folder, whose
 * name a newer run of the user may hold by now (docs/queue.md, "A late worker's workbook").
 */
export async function finishRun(deps: FinishDeps, run: BacktestRun, result: EngineResult, workbook: Uint8Array, custom: Candles | null, durationMs: number): Promise<void> {
  const files = resultFiles(run, result, workbook, custom);
  const g = result.statistics.global;
  const values: DoneValues = {
    status: 'done' as const,
    strategyLabel: result.strategyLabel.slice(0, 200),
    trades: g.trades,
    resolved: g.resolved,
    winrateTp1: g.tp1.winrate,
    winrateTp2: g.tp2.winrate,
    summary: JSON.stringify(runSummary(result.statistics)),
    xlsxPath: files[0].path,
    durationMs: Math.round(durationMs),
    updatedAt: deps.clock.now(),
  };
  const [staged, marked] = await Promise.allSettled([stageAll(deps.storage, files), markDone(deps, run, values)]);
  if (marked.status === 'rejected') {
    // Given up meanwhile (or the database failed): the staged files never reach the folder.
    if (staged.status === 'fulfilled') await discardAll(deps.storage, staged.value);
    throw marked.reason;
  }
  try {
    // A file not staged (a full disk) leaves the run without its result.
    if (staged.status === 'rejected') throw staged.reason;
    await publishRun(deps, run, staged.value);
  } catch (err) {
    // Marked done, but a file was not stored (a full disk, the bucket refusing the write): back to
    // 'running' with its event gone, so that whoever gives the run up (cancelRun: the queue's
    // failure, the stale sweep) refunds it. Left done, a failed job's cancel found a result and
    // refunded nothing, although its workbook never existed.
    await unmarkDone(deps, run);
    throw err;
  }
}

/**
 * A run already done, stored again (a queued job handed back after its first worker marked the run
 * done and died, maybe before publishing): its files staged, then published under the same
 * condition as finishRun's, so a run its user deleted meanwhile gets no file back, and a newer
 * run that took the folder's name keeps its own.
 */
export async function republishRun(deps: FinishDeps, run: BacktestRun, result: EngineResult, workbook: Uint8Array, custom: Candles | null): Promise<void> {
  await publishRun(deps, run, await stageAll(deps.storage, resultFiles(run, result, workbook, custom)));
}

interface ResultFile {
  path: string;
  data: Uint8Array;
}

/** The files of a result in the run's folder: the workbook first, then an upload's chart candles. */
function resultFiles(run: BacktestRun, result: EngineResult, workbook: Uint8Array, custom: Candles | null): ResultFile[] {
  const files = [{ path: `results/${run.userId}/${run.folder}/${workbookFileName(run.folder)}`, data: workbook }];
  // An upload is not kept: the period's candles are, for the result view's chart.
  if (custom) {
    const period = sliceCandles(custom, lowerBound(custom.time, result.from), custom.length);
    files.push({ path: chartCandlesPath(run), data: candlesToIpc({ ...period, symbol: run.symbol, timeframe: run.timeframe as TimeframeKey }) });
  }
  return files;
}

type StagedResult = { path: string; staged: StagedFile }[];

/** Every file staged, or none: one that fails drops those staged with it. */
async function stageAll(storage: Storage, files: ResultFile[]): Promise<StagedResult> {
  const settled = await Promise.allSettled(files.map((f) => storage.stage(f.data)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const staged = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [{ path: files[i].path, staged: s.value }] : []));
  if (!failed) return staged;
  await discardAll(storage, staged);
  throw failed.reason;
}

async function discardAll(storage: Storage, staged: StagedResult): Promise<void> {
  await Promise.all(staged.map((s) => storage.discard(s.staged).catch(() => undefined)));
}

/**
 * The staged files put at their paths only while the run's row is there, 'done' and still naming
 * this folder, checked and published under one lock: the row read FOR UPDATE on MySQL (a
 * deletion of the run, by its user, its account's or anyone's, waits for the publication), SQLite's
 * write lock on SQLite (BEGIN IMMEDIATE: no other process writes meanwhile). So a file is never
 * published into a folder its run no longer owns: a deletion committed before finds no row here
 * (nothing published, the files dropped), one after removes the published folder. False when the
 * run was gone. A file that fails to publish takes back those published before it. A removal still
 * owed at the folder (the name freed by a deletion and taken by this run) is done first.
 */
async function publishRun(deps: FinishDeps, run: BacktestRun, staged: StagedResult): Promise<boolean> {
  const { db } = deps;
  const v = db.literal;
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  // Raw SQL, as the mark: Sequelize's query building cost more of the event loop than the read.
  const read =
    `SELECT ${q('id')} FROM ${q('backtest_runs')} WHERE ${q('id')} = ${Number(run.id)} AND ${q('run_id')} = ${v(run.runId)} AND ${q('user_id')} = ${Number(run.userId)}` +
    ` AND ${q('folder')} = ${v(run.folder)} AND ${q('status')} = 'done'${db.dialect === 'mysql' ? ' FOR UPDATE' : ''}`;
  try {
    return await db.transaction(async (t) => {
      if ((await db.raw(t).all(read)).length === 0) return false;
      // The folder of a run given up or deleted whose name this run took, not removed yet: removed
      // now, under its removal's lock, so that removal cannot land after these files (docs/queue.md,
      // "A folder freed and taken again").
      await settleOwedAt(db, deps.storage, t, `results/${run.userId}/${run.folder}`);
      const published: string[] = [];
      try {
        for (const file of staged) {
          await deps.storage.publish(file.staged, file.path);
          published.push(file.path);
        }
      } catch (err) {
        await Promise.all(published.map((path) => deps.storage.remove(path).catch(() => undefined)));
        throw err;
      }
      return true;
    });
  } finally {
    // Whatever was not published: nothing is left in staging.
    await discardAll(deps.storage, staged);
  }
}

/** A run marked done whose files failed: 'running' again, without the `backtest` event of a result. */
async function unmarkDone(deps: FinishDeps, run: BacktestRun): Promise<void> {
  const { BacktestRun, AppEvent } = deps.db.models;
  await deps.db.transaction(async (t) => {
    const [changed] = await BacktestRun.update({ status: 'running', updatedAt: deps.clock.now() }, { where: { id: run.id, status: 'done' }, transaction: t });
    if (changed === 1) await AppEvent.destroy({ where: { kind: 'backtest', reference: run.runId }, transaction: t });
  });
  run.set({ status: 'running' });
}

/**
 * The row turned 'done' with its `backtest` event, in one transaction, only while it is still
 * 'running' (RunNotRunning otherwise). Raw SQL (docs/queue.md, SQLite): on SQLite both statements
 * go to SQLite in one call, the event first and only while the row is running, then the UPDATE,
 * whose row count the script reports; on MySQL one CALL of the stored procedure
 * bt_finish_backtest (migration 0006, docs/queue.md) does both in its own transaction.
 */
async function markDone(deps: FinishDeps, run: BacktestRun, values: DoneValues): Promise<void> {
  const { db } = deps;
  const v = db.literal;
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  const sets = DONE_COLUMNS.map(([key, column]) => `${q(column)} = ${v(values[key])}`).join(', ');
  const where = `WHERE ${q('id')} = ${Number(run.id)} AND ${q('status')} = 'running'`;
  const update = `UPDATE ${q('backtest_runs')} SET ${sets} ${where}`;
  const event = backtestEvent({
    runId: run.runId,
    userId: run.userId,
    createdAt: run.createdAt,
    symbol: run.symbol,
    timeframe: run.timeframe,
    strategy: run.strategy,
    folder: run.folder,
    durationMs: values.durationMs,
    startDate: run.startDate,
    endDate: run.endDate,
    source: run.source,
  });
  let changed: number;
  if (db.dialect === 'sqlite') {
    const insert = eventInsertSql(db, event, deps.clock.now(), `FROM ${q('backtest_runs')} ${where}`);
    changed = await db.script([insert, update], async (_, changes) => changes);
  } else {
    // The procedure (migration 0006) is its own transaction: the UPDATE, and the event when it
    // changed the row, in one round trip.
    const done = DONE_COLUMNS.filter(([key]) => key !== 'status').map(([key]) => v(values[key]));
    const [row] = await db.autocommit<{ changed: number }>(`CALL bt_finish_backtest(${Number(run.id)}, ${done.join(', ')}, ${eventLiterals(db, event, deps.clock.now())})`);
    changed = Number(row?.changed ?? 0);
  }
  if (changed !== 1) throw new RunNotRunning(run.runId);
  run.set(values);
}

type DoneValues = {
  status: 'done';
  strategyLabel: string;
  trades: number;
  resolved: number;
  winrateTp1: number | null;
  winrateTp2: number | null;
  summary: string;
  xlsxPath: string;
  durationMs: number;
  updatedAt: Date;
};

const DONE_COLUMNS: [keyof DoneValues, string][] = [
  ['status', 'status'],
  ['strategyLabel', 'strategy_label'],
  ['trades', 'trades'],
  ['resolved', 'resolved'],
  ['winrateTp1', 'winrate_tp1'],
  ['winrateTp2', 'winrate_tp2'],
  ['summary', 'summary'],
  ['xlsxPath', 'xlsx_path'],
  ['durationMs', 'duration_ms'],
  ['updatedAt', 'updated_at'],
];

/**
 * Gives a run up: its row removed and its charge refunded in one transaction, only while it is
 * still 'running' (so a run is refunded once, and a finished one never), with the removal of its
 * folder owed (storage/removals.ts), then its folder removed. 'done' when it had finished first,
 * 'gone' when someone else had already given it up. Once the transaction is committed the run is
 * cancelled and refunded whatever the storage does: a folder that cannot be removed is logged and
 * left to the sweep, it never makes this throw.
 */
export async function cancelRun(deps: { db: Database; ledger: CreditLedger; storage: Storage; log: (message: string) => void }, run: Pick<BacktestRun, 'id' | 'runId' | 'userId' | 'folder'>): Promise<'cancelled' | 'done' | 'gone'> {
  const { BacktestRun } = deps.db.models;
  // A reference from a queued job is data read back from Redis: the row is found by all of its
  // fields, so a malformed or mismatched one (the id of one run, the run id of another) changes
  // nothing rather than removing one user's run and refunding another's.
  if (!isRunRef(run)) throw new Error(`malformed run reference: ${JSON.stringify(run)?.slice(0, 200)}`);
  const path = `results/${run.userId}/${run.folder}`;
  const where = { id: run.id, runId: run.runId, userId: run.userId, folder: run.folder };
  const outcome = await deps.db.transaction(async (t) => {
    // Before the run's row: a deletion (users/purge.ts) holds the account's row, then reads its
    // running runs FOR UPDATE; the opposite order deadlocked (test/backtests-at-once.test.ts).
    await lockAccountRow(deps.db, run.userId, t);
    const removed = await BacktestRun.destroy({ where: { ...where, status: 'running' }, transaction: t });
    if (removed === 1) {
      await deps.ledger.refund(run.userId, run.runId, { transaction: t });
      return { owed: await oweRemoval(deps.db, path, t) };
    }
    const row = await BacktestRun.findOne({ where, attributes: ['status'], transaction: t });
    return row ? ('done' as const) : ('gone' as const);
  });
  if (typeof outcome === 'string') return outcome;
  await settleRemoval(deps, outcome.owed, path, `run ${run.runId} cancelled and refunded`);
  return 'cancelled';
}

/** The fields cancelRun relies on, of the right types (a queued job's data may come from another version). */
function isRunRef(run: unknown): run is Pick<BacktestRun, 'id' | 'runId' | 'userId' | 'folder'> {
  if (run === null || typeof run !== 'object') return false;
  const r = run as Record<string, unknown>;
  return Number.isSafeInteger(r.id) && (r.id as number) > 0 && Number.isSafeInteger(r.userId) && (r.userId as number) > 0 && typeof r.runId === 'string' && r.runId !== '' && typeof r.folder === 'string' && r.folder !== '';
}
