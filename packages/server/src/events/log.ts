import { OFFERS } from '@bt/core/catalogue';
import type { Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import type { AppEvent, BacktestRun, CreditEntry, EventKind, User } from '../db/models.js';

/** What a caller says happened; the log adds the UTC day, hour and weekday. */
export interface EventInput {
  kind: EventKind;
  userId?: number | null;
  at?: Date;
  amountCents?: number | null;
  credits?: number | null;
  method?: string | null;
  category?: string | null;
  label?: string | null;
  symbol?: string | null;
  timeframe?: string | null;
  strategy?: string | null;
  durationMs?: number | null;
  /** The same kind and reference are recorded once (a replay, or a rebuild, changes nothing). */
  reference?: string | null;
  meta?: Record<string, unknown> | null;
}

type EventValues = Omit<AppEvent['_creationAttributes'], 'id'>;

const clip = (text: string | null | undefined, max: number) => (text == null ? null : text.length > max ? text.slice(0, max) : text);

/** The row of an event: UTC calendar fields stored beside the instant (docs/admin.md, "Event log"). */
export function eventValues(input: EventInput, now: Date): EventValues {
  const at = input.at ?? now;
  return {
    kind: input.kind,
    userId: input.userId ?? null,
    occurredAt: at,
    day: at.toISOString().slice(0, 10),
    hour: at.getUTCHours(),
    weekday: (at.getUTCDay() + 6) % 7,
    amountCents: input.amountCents ?? null,
    credits: input.credits ?? null,
    method: clip(input.method, 32),
    category: clip(input.category, 32),
    label: clip(input.label, 200),
    symbol: clip(input.symbol, 32),
    timeframe: clip(input.timeframe, 8),
    strategy: clip(input.strategy, 120),
    durationMs: input.durationMs ?? null,
    reference: clip(input.reference, 191),
    meta: input.meta ? JSON.stringify(input.meta) : null,
  };
}

const EVENT_COLUMNS: [keyof EventValues, string][] = [
  ['kind', 'kind'],
  ['userId', 'user_id'],
  ['occurredAt', 'occurred_at'],
  ['day', 'day'],
  ['hour', 'hour'],
  ['weekday', 'weekday'],
  ['amountCents', 'amount_cents'],
  ['credits', 'credits'],
  ['method', 'method'],
  ['category', 'category'],
  ['label', 'label'],
  ['symbol', 'symbol'],
  ['timeframe', 'timeframe'],
  ['strategy', 'strategy'],
  ['durationMs', 'duration_ms'],
  ['reference', 'reference'],
  ['meta', 'meta'],
];

/**
 * The event's row as one raw INSERT that ignores a (kind, reference) already there, as
 * EventLog.record does, for a caller writing raw SQL in its transaction (backtests/finish.ts).
 * With `onlyIf` (a FROM ... WHERE clause), the row is inserted only when that finds a row.
 */
export function eventInsertSql(db: Database, input: EventInput, now: Date, onlyIf?: string): string {
  const row = eventValues(input, now);
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  const values = EVENT_COLUMNS.map(([key]) => db.literal(row[key] ?? null)).join(', ');
  const columns = EVENT_COLUMNS.map(([, column]) => q(column)).join(', ');
  const insert = db.dialect === 'sqlite' ? 'INSERT OR IGNORE' : 'INSERT IGNORE';
  return `${insert} INTO ${q('events')} (${columns}) ${onlyIf ? `SELECT ${values} ${onlyIf}` : `VALUES (${values})`}`;
}

/**
 * The event's values as SQL literals in the order of the events table's columns (kind, user_id,
 * occurred_at, …, reference, meta), for a stored procedure's parameters (bt_finish_backtest).
 */
export function eventLiterals(db: Database, input: EventInput, now: Date): string {
  const row = eventValues(input, now);
  return EVENT_COLUMNS.map(([key]) => db.literal(row[key] ?? null)).join(', ');
}

const OFFER_LABELS = new Map(OFFERS.map((o) => [o.id, o.label]));
/** Grants that cost the user nothing: the "credits offered" of the statistics. */
const OFFERED_REASONS = new Set(['verification', 'admin', 'bonus']);
const PAID_REASONS = new Set(['purchase', 'subscription']);

/**
 * The event of a ledger row, or null when the row is not one the statistics count on its own
 * (a backtest's charge is counted by its `backtest` event once the run is done; a failed run's
 * charge and refund cancel out). The live hook and the rebuild both call this, so they agree.
 */
export function ledgerEvent(entry: Pick<CreditEntry, 'id' | 'userId' | 'kind' | 'reason' | 'amount' | 'reference' | 'meta' | 'createdAt'>): EventInput | null {
  const base = { userId: entry.userId, at: entry.createdAt };
  const meta = parseStoredObject<{ offer_id: string; amount_eur: number; method: string; payment: string }>(entry.meta);
  if (entry.kind === 'grant' && PAID_REASONS.has(entry.reason)) {
    const amount = typeof meta.amount_eur === 'number' && Number.isFinite(meta.amount_eur) ? Math.round(meta.amount_eur * 100) : null;
    const offer = typeof meta.offer_id === 'string' ? meta.offer_id : null;
    return {
      ...base,
      kind: 'purchase',
      amountCents: amount,
      credits: entry.amount,
      method: typeof meta.method === 'string' ? meta.method : 'inconnu',
      label: (offer && OFFER_LABELS.get(offer)) ?? offer ?? entry.reason,
      reference: typeof meta.payment === 'string' ? `payment:${meta.payment}` : `ledger:${entry.id}`,
      meta: { reason: entry.reason, offer_id: offer },
    };
  }
  if (entry.kind === 'grant') {
    if (!OFFERED_REASONS.has(entry.reason)) return null;
    return { ...base, kind: 'credits_offered', credits: entry.amount, method: entry.reason, label: entry.reason, reference: `ledger:${entry.id}` };
  }
  if (entry.reason === 'backtest') return null;
  // A spend other than a backtest's (a CSV, an extraction, an admin's removal), or the refund of one.
  return { ...base, kind: 'credits_spent', credits: entry.amount, method: entry.reason, label: entry.kind === 'refund' ? `refund:${entry.reason}` : entry.reason, reference: `ledger:${entry.id}` };
}

/** The event of a finished run (live at the end of the run, and in a rebuild). */
export function backtestEvent(run: Pick<BacktestRun, 'runId' | 'userId' | 'createdAt' | 'symbol' | 'timeframe' | 'strategy' | 'folder' | 'durationMs' | 'startDate' | 'endDate' | 'source'>): EventInput {
  return {
    kind: 'backtest',
    userId: run.userId,
    at: run.createdAt,
    credits: -2,
    symbol: run.symbol,
    timeframe: run.timeframe,
    strategy: run.strategy,
    label: run.folder,
    durationMs: run.durationMs,
    reference: run.runId,
    meta: { period: `${run.startDate} → ${run.endDate}`, source: run.source },
  };
}

/** What the statistics keep of a failed or refused payment attempt (a row of the `payments` table). */
export interface FailedPaymentFacts {
  reference: string;
  provider: string;
  userId: number | null;
  offerId: string | null;
  amountCents: number | null;
  failureKind: string | null;
  at: Date;
}

/**
 * The event of a failed or refused payment: the payments code records it where it marks the
 * attempt, and a rebuild maps the `payments` table's rows through this same function.
 */
export function failedPaymentEvent(p: FailedPaymentFacts): EventInput {
  return {
    kind: 'failed_payment',
    userId: p.userId,
    at: p.at,
    method: p.provider,
    category: p.failureKind ?? 'inconnu',
    amountCents: p.amountCents,
    label: (p.offerId && OFFER_LABELS.get(p.offerId)) ?? p.offerId,
    reference: `payment:${p.reference}`,
  };
}

/** What the statistics keep of a paid payment's refunds and disputes (a row of the `payments` table). */
export interface RefundFacts {
  reference: string;
  provider: string;
  userId: number | null;
  offerId: string | null;
  /** The cents gone back so far (payments/money.ts `reversedCents`): refunded, or held by a dispute. */
  reversedCents: number;
  creditsReversed: number;
  disputeStatus: string | null;
  /** The last change (live: the notice; a rebuild: the row's `updated_at`). */
  at: Date;
}

/**
 * The refund event of a paid payment: one per payment (reference `payment:{ours}`), brought up to
 * date by each refund or dispute notice (Reversals), so it holds the money gone back so far, on
 * the day of the last change; a rebuild maps the `payments` table's rows through this same
 * function. No `credits`: the credits taken back are the ledger's `credits_spent` events.
 */
export function refundEvent(p: RefundFacts): EventInput {
  return {
    kind: 'refund',
    userId: p.userId,
    at: p.at,
    method: p.provider,
    category: p.disputeStatus ? `dispute_${p.disputeStatus}` : 'refund',
    amountCents: p.reversedCents,
    label: (p.offerId && OFFER_LABELS.get(p.offerId)) ?? p.offerId,
    reference: `payment:${p.reference}`,
    meta: { credits_reversed: p.creditsReversed },
  };
}

export const signupEvent = (user: Pick<User, 'id' | 'createdAt'>): EventInput => ({ kind: 'signup', userId: user.id, at: user.createdAt, reference: `user:${user.id}` });

/** Who deleted an account: its owner, an admin, the sweep of inactive accounts (users/inactivity.ts), or unknown (a rebuild). */
export type DeletedBy = 'self' | 'admin' | 'inactivity';

export const deletionEvent = (userId: number, at: Date, by: DeletedBy | 'unknown'): EventInput => ({
  kind: 'deletion',
  userId,
  at,
  method: by,
  reference: `user:${userId}`,
});

/**
 * The event log the admin statistics are computed from (docs/admin.md). Every source records
 * through `record`: in the caller's transaction when it has one (the event lands with the fact),
 * otherwise on its own, where a failure is logged and never breaks what the user was doing.
 */
export class EventLog {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly log: (message: string) => void = () => {},
  ) {}

  async record(input: EventInput, transaction?: Transaction): Promise<void> {
    await this.recordMany([input], transaction);
  }

  async recordMany(inputs: readonly EventInput[], transaction?: Transaction): Promise<void> {
    if (inputs.length === 0) return;
    const now = this.clock.now();
    const rows = inputs.map((input) => eventValues(input, now));
    // INSERT IGNORE / INSERT OR IGNORE: a (kind, reference) already there is a replay.
    const insert = (t: Transaction) => this.db.models.AppEvent.bulkCreate(rows, { ignoreDuplicates: true, transaction: t });
    if (transaction) {
      await insert(transaction);
      return;
    }
    try {
      await this.db.transaction(insert);
    } catch (err) {
      this.log(`events: ${inputs.map((i) => i.kind).join(', ')} not recorded: ${(err as Error).message}`);
    }
  }

  /**
   * Records the event, or brings the one already there (same kind and reference) up to date: an
   * attempt that fails, then is refused for another reason, is one failed payment of the last kind.
   * `dated`: its instant (and day, hour, weekday) and meta move too (a payment's refunds so far).
   */
  async upsert(input: EventInput, transaction: Transaction, options: { dated?: boolean } = {}): Promise<void> {
    await this.record(input, transaction);
    if (!input.reference) return;
    const { category, method, amountCents, label, occurredAt, day, hour, weekday, meta } = eventValues(input, this.clock.now());
    const changes = options.dated ? { category, method, amountCents, label, occurredAt, day, hour, weekday, meta } : { category, method, amountCents, label };
    await this.db.models.AppEvent.update(changes, { where: { kind: input.kind, reference: input.reference }, transaction });
  }

  /** The ledger's hook: each applied row, in its own transaction. */
  async fromLedger(entry: CreditEntry, transaction: Transaction): Promise<void> {
    const event = ledgerEvent(entry);
    if (event) await this.record(event, transaction);
  }
}
