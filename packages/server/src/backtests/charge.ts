import { CREDIT_COSTS } from '@bt/core/catalogue';
import { AccountGoneError, InsufficientCreditsError, type CreditLedger } from '../credits/ledger.js';
import { isUniqueViolation, type Database, type RawSession } from '../db/database.js';
import type { BacktestRun, RunSource } from '../db/models.js';
import { ledgerEvent } from '../events/log.js';

/** What the run's row holds from the start (the rest is written when it finishes). */
export interface RunStart {
  runId: string;
  userId: number;
  /** The folder's name when the user has none by it yet; `{base}_{run_seq}` otherwise. */
  base: string;
  source: RunSource;
  official: boolean;
  strategy: string;
  strategyLabel: string;
  userStrategyId: string | null;
  symbol: string;
  timeframe: string;
  startDate: string;
  endDate: string;
  slMode: string;
  slPips: number | null;
  tp1Pips: number | null;
  tp2Pips: number | null;
  params: string;
  createdAt: Date;
}

const COST = CREDIT_COSTS.backtest;

/**
 * A backtest's charge and its run's row in one transaction, as few statements as the rules allow
 * (docs/architecture.md §3): the guarded spend with the run counter (`credits >= cost`: 402 when
 * short, parallel runs never overdraw), the ledger row under the run id, and the run's row in a
 * folder unique per user, the folder-taken check folded into its INSERT. Raw SQL: Sequelize's
 * per-statement machinery cost more CPU than the statements themselves on this path.
 *
 * On SQLite the writes go to SQLite in one call (each INSERT runs only when the statement before it
 * changed one row: `changes()`), then one read gives the run's id, counter, folder and the balance
 * the ledger row recorded. On MySQL (no RETURNING, no changes()), one CALL of the stored procedure
 * bt_charge_backtest (migration 0006, docs/queue.md), its own transaction, in one round trip.
 *
 * Of the ledger's hooks, the commit one is called (the metrics); the event one is not: a
 * backtest's spend has no event of its own (the run's `backtest` event counts it once done;
 * ledgerEvent says so, checked below).
 */
export async function chargeRun(db: Database, ledger: CreditLedger, run: RunStart, meta: Record<string, unknown>): Promise<{ run: BacktestRun; balance: number }> {
  const v = db.literal;
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  const now = v(run.createdAt);
  const ledgerNow = v(new Date());
  const user = Number(run.userId);
  const ref = v(run.runId);
  const base = v(run.base);
  const suffixed = db.dialect === 'sqlite' ? `${base} || '_' || ${q('run_seq')}` : `CONCAT(${base}, '_', ${q('run_seq')})`;
  const gate = db.dialect === 'sqlite' ? ' AND changes() = 1' : '';
  const update =
    `UPDATE ${q('users')} SET ${q('credits')} = ${q('credits')} - ${COST}, ${q('run_seq')} = ${q('run_seq')} + 1, ${q('updated_at')} = ${ledgerNow}` +
    ` WHERE ${q('id')} = ${user} AND ${q('deleted_at')} IS NULL AND ${q('credits')} >= ${COST}`;
  const insertLedger =
    `INSERT INTO ${q('credit_ledger')} (${['user_id', 'kind', 'reason', 'amount', 'balance_after', 'reference', 'meta', 'created_at'].map(q).join(', ')})` +
    ` SELECT ${q('id')}, 'spend', 'backtest', ${-COST}, ${q('credits')}, ${ref}, ${v(JSON.stringify(meta))}, ${ledgerNow} FROM ${q('users')} WHERE ${q('id')} = ${user}${gate}`;
  const columns = ['run_id', 'user_id', 'run_seq', 'folder', 'status', 'source', 'official', 'strategy', 'strategy_label', 'user_strategy_id', 'symbol', 'timeframe', 'start_date', 'end_date', 'sl_mode', 'sl_pips', 'tp1_pips', 'tp2_pips', 'params', 'trades', 'resolved', 'created_at', 'updated_at'];
  const taken = `EXISTS (SELECT 1 FROM ${q('backtest_runs')} WHERE ${q('user_id')} = ${user} AND ${q('folder')} = ${base})`;
  const valuesWith = (seq: string, folder: string) => [
    ref,
    String(user),
    seq,
    folder,
    "'running'",
    v(run.source),
    v(run.official),
    v(run.strategy),
    v(run.strategyLabel),
    v(run.userStrategyId),
    v(run.symbol),
    v(run.timeframe),
    v(run.startDate),
    v(run.endDate),
    v(run.slMode),
    v(run.slPips),
    v(run.tp1Pips),
    v(run.tp2Pips),
    v(run.params),
    '0',
    '0',
    now,
    now,
  ];
  const values = valuesWith(q('run_seq'), `CASE WHEN ${taken} THEN ${suffixed} ELSE ${base} END`);
  const insertRun = `INSERT INTO ${q('backtest_runs')} (${columns.map(q).join(', ')}) SELECT ${values.join(', ')} FROM ${q('users')} WHERE ${q('id')} = ${user}${gate}`;
  const readBack =
    `SELECT r.${q('id')} AS id, r.${q('run_seq')} AS run_seq, r.${q('folder')} AS folder, l.${q('balance_after')} AS balance FROM ${q('credit_ledger')} l` +
    ` JOIN ${q('backtest_runs')} r ON r.${q('run_id')} = l.${q('reference')} WHERE l.${q('kind')} = 'spend' AND l.${q('reference')} = ${ref}`;

  type Row = { id: number; run_seq: number; folder: string; balance: number };
  const read = async (session: RawSession): Promise<Row | null> => (await session.all<Row>(readBack))[0] ?? null;
  let row: Row | null = null;
  let shortOf: { credits: number; deleted: boolean } | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      if (db.dialect === 'sqlite') {
        row = await db.script([update, insertLedger, insertRun], async (s) => {
          const found = await read(s);
          if (!found) shortOf = await userState(s, q, user);
          return found;
        });
      } else {
        const call =
          `CALL bt_charge_backtest(${user}, ${COST}, ${ledgerNow}, ${v(JSON.stringify(meta))}, ${ref}, ${base}, ${v(run.source)}, ${v(run.official)}, ` +
          `${v(run.strategy)}, ${v(run.strategyLabel)}, ${v(run.userStrategyId)}, ${v(run.symbol)}, ${v(run.timeframe)}, ${v(run.startDate)}, ${v(run.endDate)}, ` +
          `${v(run.slMode)}, ${v(run.slPips)}, ${v(run.tp1Pips)}, ${v(run.tp2Pips)}, ${v(run.params)}, ${now})`;
        // The procedure (migration 0006) is its own transaction: the guarded spend, the folder
        // choice and both INSERTs in one round trip.
        const found = (await db.autocommit<CallRow>(call))[0];
        if (found && !Number(found.charged)) shortOf = { credits: Number(found.credits), deleted: Boolean(Number(found.deleted)) };
        row = found && Number(found.charged) ? { id: Number(found.id), run_seq: Number(found.run_seq), folder: String(found.folder), balance: Number(found.credits) } : null;
      }
      break;
    } catch (err) {
      // Two runs of the same user raced for one folder name (another process on SQLite, or
      // MySQL): the loser retries with a fresh view.
      if (isUniqueViolation(err) && attempt < 4) continue;
      throw err;
    }
  }
  if (!row) {
    const state = shortOf as { credits: number; deleted: boolean } | null;
    if (!state || state.deleted) throw new AccountGoneError(user);
    throw new InsufficientCreditsError(COST, state.credits);
  }
  ledger.committed({ kind: 'spend', reason: 'backtest', amount: -COST });
  const { BacktestRun } = db.models;
  const built = BacktestRun.build(
    {
      id: Number(row.id),
      runId: run.runId,
      userId: user,
      runSeq: Number(row.run_seq),
      folder: row.folder,
      status: 'running',
      source: run.source,
      official: run.official,
      strategy: run.strategy,
      strategyLabel: run.strategyLabel,
      userStrategyId: run.userStrategyId,
      symbol: run.symbol,
      timeframe: run.timeframe,
      startDate: run.startDate,
      endDate: run.endDate,
      slMode: run.slMode,
      slPips: run.slPips,
      tp1Pips: run.tp1Pips,
      tp2Pips: run.tp2Pips,
      params: run.params,
      trades: 0,
      resolved: 0,
      createdAt: run.createdAt,
      updatedAt: run.createdAt,
    },
    { isNewRecord: false, raw: true },
  );
  return { run: built, balance: Number(row.balance) };
}

type CallRow = { charged: number; id?: number; run_seq?: number; folder?: string; credits: number; deleted?: number };

async function userState(s: RawSession, q: (name: string) => string, user: number): Promise<{ credits: number; deleted: boolean } | null> {
  const [found] = await s.all<{ credits: number; deleted_at: unknown }>(`SELECT ${q('credits')} AS credits, ${q('deleted_at')} AS deleted_at FROM ${q('users')} WHERE ${q('id')} = ${user}`);
  return found ? { credits: Number(found.credits), deleted: found.deleted_at != null } : null;
}

// The event hook is skipped above because a backtest's spend has no event: fail at start-up, not
// silently, should that ever change.
if (ledgerEvent({ id: 0, userId: 0, kind: 'spend', reason: 'backtest', amount: -COST, reference: 'x', meta: null, createdAt: new Date(0) }) !== null) {
  throw new Error('backtests/charge.ts: a backtest spend now has a ledger event; record it in chargeRun');
}
