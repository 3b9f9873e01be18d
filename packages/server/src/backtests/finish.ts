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
import { oweRemoval, settleRemoval } from '../storage/removals.js';
import type { Storage } from '../storage/types.js';
import type { EngineResult } from '../jobs/task.js';

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
 * result view's chart) written while the row turns 'done' with its event, all at once rather than
 * one after the other. The row changes only while it is still 'running' (RunNotRunning
 * otherwise): with a job queue the API may have given up on the run and refunded it, and then
 * a late worker must not turn it into a result.
 */
export async function finishRun(deps: FinishDeps, run: BacktestRun, result: EngineResult, workbook: Uint8Array, custom: Candles | null, durationMs: number): Promise<void> {
  const xlsxPath = `results/${run.userId}/${run.folder}/${workbookFileName(run.folder)}`;
  const g = result.statistics.global;
  const values: DoneValues = {
    status: 'done' as const,
    strategyLabel: result.strategyLabel.slice(0, 200),
    trades: g.trades,
    resolved: g.resolved,
    winrateTp1: g.tp1.winrate,
    winrateTp2: g.tp2.winrate,
    summary: JSON.stringify(runSummary(result.statistics)),
    xlsxPath,
    durationMs: Math.round(durationMs),
    updatedAt: deps.clock.now(),
  };
  const writes: Promise<void>[] = [deps.storage.write(xlsxPath, workbook)];
  // An upload is not kept: the period's candles are, for the result view's chart.
  if (custom) {
    const period = sliceCandles(custom, lowerBound(custom.time, result.from), custom.length);
    writes.push(deps.storage.write(chartCandlesPath(run), candlesToIpc({ ...period, symbol: run.symbol, timeframe: run.timeframe as TimeframeKey })));
  }
  const marking = markDone(deps, run, values);
  const settled = await Promise.allSettled([...writes, marking]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return;
  // Marked done, but a file was not stored (a full disk, the bucket refusing the write): back to
  // 'running' with its event gone, so that whoever gives the run up (cancelRun: the queue's
  // failure, the stale sweep) refunds it. Left done, a failed job's cancel found a result and
  // refunded nothing, although its workbook never existed.
  if (settled.at(-1)!.status === 'fulfilled') await unmarkDone(deps, run);
  throw failed.reason;
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
