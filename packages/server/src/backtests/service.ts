import { randomUUID } from 'node:crypto';
import { headCandles } from '@bt/core';
import type { Candles } from '@bt/core/candles';
import type { TradingCostsInput } from '@bt/core/costs';
import { getStrategy, type StrategyParams, type TimeframeKey } from '@bt/core/catalogue';
import { ParamError, describeJsonTextError, normalizeParams } from '@bt/core/params';
import { formatDayFr, rangesTextFr } from '@bt/core/format';
import { resultFolderName } from '@bt/core/report';
import { lowerBound } from '@bt/core/simulate';
import { Op } from 'sequelize';
import { HttpError, badRequest, notFound } from '../app/errors.js';
import type { Clock } from '../clock/index.js';
import { AccountGoneError, type CreditLedger } from '../credits/ledger.js';
import { isDatabaseUnavailable, type Database } from '../db/database.js';
import type { BacktestRun, RunSource, User, UserStrategy } from '../db/models.js';
import type { DatasetStore, MonthRef } from '../datasets/store.js';
import type { EventLog } from '../events/log.js';
import { JobEndedElsewhere, type BacktestRunner } from '../jobs/runner.js';
import type { EngineRequest, EngineResult } from '../jobs/task.js';
import { oweRemoval, retryRemovals, settleRemoval } from '../storage/removals.js';
import type { Storage } from '../storage/types.js';
import { frenchWarning, resultWarnings } from './warning-messages.js';
import { normalizeUserParams, type StrategyShape } from '../strategies/contract.js';
import { sandboxHttpError } from '../strategies/messages.js';
import { SandboxError } from '../strategies/sandbox/sandbox.js';
import type { UserStrategies } from '../strategies/service.js';
import { hasBacktestPriority } from '../users/presenter.js';
import { chargeRun } from './charge.js';
import { cancelRun, finishRun } from './finish.js';
import { JOB_MESSAGES } from '../jobs/messages.js';
import { checkParamsInput } from './params-input.js';
import { BACKTEST_MESSAGES, dayOf, storedParams, type Exits } from './request.js';

export type StrategyChoice =
  | { kind: 'official'; key: string; label: string }
  | { kind: 'user'; row: UserStrategy; shape: StrategyShape };

export interface BacktestPlan {
  user: User;
  source: RunSource;
  strategy: StrategyChoice;
  /** Normalised by `normalize` before anything is loaded or charged. */
  params: RunParams;
  exits: Exits;
  /** Spread, commission, slippage (checked by costsOf); none when absent. */
  costs?: TradingCostsInput;
  symbol: string;
  timeframe: TimeframeKey;
  pipSize: number;
  /** Warm-up first, then the period; cut after `to`. */
  candles: Candles;
  /** Official candles: the library months they were read from (a bt-worker reads the same files, docs/queue.md). */
  months?: readonly MonthRef[];
  from: number;
  to: number;
}

export interface RunParams {
  params: StrategyParams;
  warnings: string[];
  /** As the run row stores them: within PARAMS_STORED_MAX_BYTES (a MySQL TEXT holds 64 KB). */
  json: string;
}

export interface BacktestOutcome {
  run: BacktestRun;
  result: EngineResult;
  balance: number;
  params: StrategyParams;
  warnings: string[];
  sandboxMs: number | null;
  /** Where the server's time went (ms): the charge transaction, storing the workbook and the run. */
  phases: { charge_ms: number; store_ms: number };
}

const NOT_CHARGED = ' Aucun crédit n’a été débité.';

/**
 * Runs a backtest for a user (docs/product.md, docs/architecture.md §3, §4): parameters normalised
 * by core, 2 credits charged atomically before the run with the run id as ledger reference, the
 * run through core's runBacktest on a worker thread or a queue worker (never a second
 * implementation; a personal strategy's signals come from the sandbox, here, and plug into core's
 * signal-strategy interface there), the workbook stored under the user's results, and the charge
 * refunded when anything fails after it.
 */
export class Backtests {
  constructor(
    private readonly deps: {
      db: Database;
      storage: Storage;
      ledger: CreditLedger;
      datasets: DatasetStore;
      strategies: UserStrategies;
      events: EventLog;
      clock: Clock;
      sandboxLimits: { memoryBytes: number; cpuSeconds: number };
      /** Worker threads, or the Redis job queue (src/jobs/). */
      runner: BacktestRunner;
      log: (message: string) => void;
      /** The public top list (src/public/listing-cache.ts): a finished official run enters it at once. */
      publicListing?: { forget(): void };
      /** Deleted accounts still owning rows, purged by the sweep (users/purge.ts). */
      accountPurge?: { sweepDeleted(): Promise<number> };
      /** Inactive accounts, warned then archived by the sweep (users/inactivity.ts). */
      accountInactivity?: { sweep(): Promise<unknown> };
      /** Rows kept past their use: old support messages, expired links, idle keys (src/retention/). */
      retention?: { sweep(): Promise<unknown> };
    },
  ) {}

  get runner(): BacktestRunner {
    return this.deps.runner;
  }

  private sweeper: NodeJS.Timeout | null = null;

  /**
   * Runs left 'running' longer than `olderThanMs`: their process died mid-run, or the database
   * was away when the run failed and its refund could not be written. Each is removed and
   * refunded once (cancelRun is guarded by the row's status). Returns how many were. A run that
   * fails is logged with its id and skipped; the others are still given up.
   */
  async sweepStale(olderThanMs: number): Promise<number> {
    const { BacktestRun } = this.deps.db.models;
    const before = new Date(this.deps.clock.now().getTime() - olderThanMs);
    const stale = await BacktestRun.findAll({ where: { status: 'running', createdAt: { [Op.lt]: before } }, attributes: ['id', 'runId', 'userId', 'folder'], limit: 500 });
    let cancelled = 0;
    for (const run of stale) {
      // One run that cannot be given up (its refund refused, the database away) must not keep
      // every later run, other users' included, charged: logged with its id, the sweep goes on (and
      // meets it again next time). Nothing was committed then: the row is still 'running'. A folder
      // that cannot be removed after the refund is committed does not come here (cancelRun logs
      // it, and the removals sweep retries it): the run is cancelled and refunded.
      let outcome: Awaited<ReturnType<typeof cancelRun>>;
      try {
        outcome = await cancelRun(this.deps, run);
      } catch (err) {
        this.deps.log(`run ${run.runId}: stale run could not be cancelled and refunded (user ${run.userId}): ${(err as Error).message}`);
        continue;
      }
      if (outcome !== 'cancelled') continue;
      cancelled++;
      this.deps.log(`run ${run.runId}: left running since before ${before.toISOString()}: cancelled and refunded`);
    }
    return cancelled;
  }

  /**
   * The sweep every `everyMs` (main.ts starts it; close() stops it): stale runs, deleted accounts
   * still owning rows (users/purge.ts), the inactive accounts (users/inactivity.ts), then the files
   * whose removal failed earlier (storage/removals.ts), then the rows kept past their use
   * (retention/sweep.ts).
   */
  startSweeper(everyMs: number, olderThanMs: number): void {
    this.sweeper ??= setInterval(() => {
      this.sweepStale(olderThanMs)
        .catch((err) => this.deps.log(`stale runs sweep failed: ${(err as Error).message}`))
        .then(() => this.deps.accountPurge?.sweepDeleted())
        .catch((err) => this.deps.log(`deleted accounts sweep failed: ${(err as Error).message}`))
        .then(() => this.deps.accountInactivity?.sweep())
        .catch((err) => this.deps.log(`inactive accounts sweep failed: ${(err as Error).message}`))
        .then(() => retryRemovals(this.deps))
        .catch((err) => this.deps.log(`storage removals sweep failed: ${(err as Error).message}`))
        .then(() => this.deps.retention?.sweep())
        .catch((err) => this.deps.log(`retention sweep failed: ${(err as Error).message}`));
    }, everyMs);
    this.sweeper.unref?.();
  }

  /** Stops the sweep, then the runner (its running jobs finish). */
  close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    return this.deps.runner.close();
  }

  /** The strategy of a request: an official key, or the user's own personal strategy (404 otherwise). */
  async choose(user: User, ref: { kind: 'official'; key: string } | { kind: 'user'; id: string }): Promise<StrategyChoice> {
    if (ref.kind === 'official') return { kind: 'official', key: ref.key, label: getStrategy(ref.key).label };
    const row = await this.deps.strategies.owned(user.id, ref.id);
    // Refused before the charge: without Python or its isolation the run could only fail.
    const unavailable = this.deps.strategies.unavailableError();
    if (unavailable) throw unavailable;
    return { kind: 'user', row, shape: this.deps.strategies.shapeOf(row) };
  }

  /**
   * Canonical parameters (aliases, coercion, defaults; unknown names dropped with a warning), and
   * their stored form within its bound: the routes call it before loading candles, so a refused
   * parameter costs no read and no credit.
   */
  normalize(strategy: StrategyChoice, raw: unknown): RunParams {
    const { params, warnings } = this.normalized(strategy, raw);
    return { params, warnings, json: storedParams(params) };
  }

  /** The parameters, and what was dropped or looked doubtful in French (backtests/warning-messages.ts). */
  private normalized(strategy: StrategyChoice, raw: unknown): { params: StrategyParams; warnings: string[] } {
    // Bounded before core reads them (depth of JSON text, number and length of names): params-input.ts.
    checkParamsInput(raw);
    if (strategy.kind === 'official') {
      const { params, notices } = normalizeParams(raw, { strategy: strategy.key, unknown: 'warn' });
      return { params, warnings: notices.map(frenchWarning) };
    }
    try {
      const { params, notices } = normalizeUserParams(strategy.shape, raw);
      return { params, warnings: notices.map(frenchWarning) };
    } catch (err) {
      // The engine's English message is not shown: where and why, in core's words (translated by app/param-messages.ts).
      if (err instanceof SyntaxError) throw new ParamError('params', raw, `a JSON object (${typeof raw === 'string' ? describeJsonTextError(raw) : 'unreadable JSON'})`);
      throw err;
    }
  }

  /** Official candles of [from, to] with their warm-up, and the library months they come from; 404 when the store has none there. */
  async officialCandles(symbol: string, timeframe: TimeframeKey, from: number, to: number): Promise<{ candles: Candles; months: readonly MonthRef[] }> {
    const loaded = await this.deps.datasets.load(symbol, timeframe, from, to);
    if (!loaded || loaded.inPeriod === 0) throw notFound(await this.noDataMessage(symbol, timeframe, from, to));
    return { candles: loaded.candles, months: loaded.datasets };
  }

  /** The 'no data' answer, naming what the library does hold for this symbol (French dates). */
  private async noDataMessage(symbol: string, timeframe: TimeframeKey, from: number, to: number): Promise<string> {
    const found = await this.deps.datasets.seriesAvailability(symbol, timeframe);
    if (!found.symbol) return BACKTEST_MESSAGES.noDataForSymbol(symbol);
    const available = found.series
      ? BACKTEST_MESSAGES.availableRanges(timeframe, rangesTextFr(found.series.ranges))
      : BACKTEST_MESSAGES.availableElsewhere(symbol, found.symbol.timeframes.map((t) => t.timeframe).join(', '));
    return BACKTEST_MESSAGES.noOfficialData(symbol, timeframe, formatDayFr(from), formatDayFr(to), available);
  }

  async run(plan: BacktestPlan): Promise<BacktestOutcome> {
    const { user, strategy, exits } = plan;
    const { params, warnings, json } = plan.params;
    const key = strategy.kind === 'official' ? strategy.key : strategy.shape.key;
    const candles = cutAfter(plan.candles, plan.to);
    const base = resultFolderName({ symbol: plan.symbol, timeframe: plan.timeframe, strategy: key, from: plan.from, to: plan.to, slPips: exits.slPips, slMode: exits.slMode });
    const runId = randomUUID();
    const charging = performance.now();
    const { run, balance } = await this.charge(plan, runId, base, key, json);
    const started = performance.now();
    const chargeMs = started - charging;
    try {
      let engineStrategy: EngineRequest['strategy'] = key;
      let sandboxMs: number | null = null;
      if (strategy.kind === 'user') {
        const signals = await this.deps.strategies.signals(strategy.row, candles, params, { symbol: plan.symbol, timeframe: plan.timeframe, pip_size: plan.pipSize });
        sandboxMs = signals.wallMs;
        engineStrategy = { shape: strategy.shape, label: strategy.row.displayName, signals: signals.signals };
      }
      const request: EngineRequest = {
        strategy: engineStrategy,
        params,
        slMode: exits.slMode,
        slPips: exits.slPips,
        tp1Pips: exits.tp1Pips,
        tp2Pips: exits.tp2Pips,
        symbol: plan.symbol,
        timeframe: plan.timeframe,
        pipSize: plan.pipSize,
        from: plan.from,
        to: plan.to,
        costs: plan.costs,
        run: { runId, userId: user.id, runSeq: run.runSeq },
        createdAt: this.deps.clock.now().getTime(),
      };
      const runner = this.deps.runner;
      if (runner.kind === 'queue') {
        // A worker process runs it, stores the workbook and marks the row done (src/jobs/queue.ts).
        const done = await runner.submit({ run, source: plan.source, request, candles: plan.source === 'custom' ? candles : null, months: plan.source === 'official' ? (plan.months ?? null) : null, priority: hasBacktestPriority(user, this.deps.clock.now()) });
        run.set({ status: 'done', strategyLabel: done.result.strategyLabel.slice(0, 200) });
        if (run.official) this.deps.publicListing?.forget();
        const phases = { charge_ms: round1(chargeMs), store_ms: round1(done.storeMs) };
        return { run, result: done.result, balance, params, warnings: [...new Set([...warnings, ...resultWarnings(done.result)])], sandboxMs, phases };
      }
      const { result, workbook } = await runner.pool.run(candles, request);
      const storing = performance.now();
      await finishRun(this.deps, run, result, workbook, plan.source === 'custom' ? candles : null, performance.now() - started);
      if (run.official) this.deps.publicListing?.forget();
      const phases = { charge_ms: round1(chargeMs), store_ms: round1(performance.now() - storing) };
      return { run, result, balance, params, warnings: [...new Set([...warnings, ...resultWarnings(result)])], sandboxMs, phases };
    } catch (err) {
      if (err instanceof JobEndedElsewhere) {
        // Already settled by the queue (refunded, or kept as a result): only the answer is left.
        // Its account deleted meanwhile (the run refunded and removed with it): as any request after it.
        if (await this.accountGone(user.id)) throw new AccountGoneError(user.id);
        const answer = this.failure(err.answer);
        throw answer instanceof HttpError || answer instanceof ParamError ? answer : new HttpError(503, JOB_MESSAGES.failed);
      }
      await this.undo(user.id, runId, run);
      // The account was deleted while the run ran: its row went with the account's results
      // (users/purge.ts), so the run could not be stored. Answered as any request after a
      // deletion (401), not as a failure of the engine.
      if (await this.accountGone(user.id)) throw new AccountGoneError(user.id);
      const answer = this.failure(err);
      if (answer instanceof HttpError || answer instanceof ParamError || isDatabaseUnavailable(answer)) throw answer;
      // Not the user's doing (the storage refusing the workbook, a thread lost): refunded above,
      // so the answer says so, as the queue's does (docs/queue.md, "Failures"), never a bare 500.
      // The cause goes to the log.
      this.deps.log(`run ${runId}: failed after its charge (refunded): ${(answer as Error)?.stack ?? String(answer)}`);
      throw new HttpError(503, JOB_MESSAGES.failed);
    }
  }

  /**
   * The charge and the run's row in one transaction (charge.ts): the guarded spend with the run
   * counter (402 when the balance is short, parallel runs never overdraw), the ledger row under the
   * run id, and the run's row in a folder unique per user (the base name, or base_{run_seq} when
   * the user already has one by that name).
   */
  private charge(plan: BacktestPlan, runId: string, base: string, key: string, params: string): Promise<{ run: BacktestRun; balance: number }> {
    const { user, strategy, exits } = plan;
    return chargeRun(
      this.deps.db,
      this.deps.ledger,
      {
        runId,
        userId: user.id,
        base,
        source: plan.source,
        official: plan.source === 'official' && strategy.kind === 'official',
        strategy: key,
        strategyLabel: strategy.kind === 'official' ? strategy.label : strategy.row.displayName,
        userStrategyId: strategy.kind === 'user' ? strategy.row.id : null,
        symbol: plan.symbol,
        timeframe: plan.timeframe,
        startDate: dayOf(plan.from),
        endDate: dayOf(plan.to),
        slMode: exits.slMode,
        slPips: exits.slPips ?? null,
        tp1Pips: exits.tp1Pips ?? null,
        tp2Pips: exits.tp2Pips ?? null,
        params,
        createdAt: this.deps.clock.now(),
      },
      { folder: base, symbol: plan.symbol, timeframe: plan.timeframe, strategy: key },
    );
  }

  /** A failed run leaves nothing but its ledger pair (spend and refund under its run id). */
  private async undo(userId: number, runId: string, run: BacktestRun): Promise<void> {
    try {
      await this.deps.ledger.refund(userId, runId);
    } catch (err) {
      this.deps.log(`run ${runId}: refund failed: ${(err as Error).message}`);
      throw err;
    }
    const path = `results/${userId}/${run.folder}`;
    const owed = await this.deps.db.transaction(async (t) => {
      await run.destroy({ transaction: t });
      return oweRemoval(this.deps.db, path, t);
    });
    // Refunded and gone from the list: a folder the storage keeps is the sweep's, not the user's error.
    await settleRemoval(this.deps, owed, path, `run ${runId} failed and refunded`);
  }

  private async accountGone(userId: number): Promise<boolean> {
    const row = await this.deps.db.models.User.findByPk(userId, { attributes: ['id', 'deletedAt'] });
    return !row || row.deletedAt !== null;
  }

  private failure(err: unknown): unknown {
    if (err instanceof SandboxError) {
      const refused = sandboxHttpError(err, this.deps.sandboxLimits);
      return new HttpError(refused.status, refused.message + NOT_CHARGED);
    }
    if (err instanceof HttpError || err instanceof ParamError) return err;
    const message = (err as Error)?.message ?? '';
    const signal = /^invalid signal \d+ of [^:]+: (.*)$/.exec(message);
    if (signal) return badRequest(BACKTEST_MESSAGES.invalidSignal(signal[1]));
    return err;
  }
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

/** Nothing after `to`: the engine would not use it, the sandbox must not see it. */
function cutAfter(candles: Candles, to: number): Candles {
  return headCandles(candles, lowerBound(candles.time, to + 1));
}

