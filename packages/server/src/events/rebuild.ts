import { Op } from 'sequelize';
import type { Database } from '../db/database.js';
import { QueryTypes } from 'sequelize';
import { reversedCents } from '../payments/money.js';
import { backtestEvent, deletionEvent, failedPaymentEvent, ledgerEvent, refundEvent, signupEvent, type EventInput, type EventLog } from './log.js';

const BATCH = 1000;

/**
 * Refills the event log from the tables that keep the facts (docs/admin.md, "Rebuild"): accounts
 * (sign-ups, deletions), the credit ledger (purchases, credits offered and spent) and finished
 * backtests, and the failed attempts of the `payments` table when it exists, through the same
 * mappers as the live recording, so an event already there is not recorded twice and a rebuild
 * after a reset gives back what the live log had. Logins, daily activity and unsubscriptions
 * exist nowhere else and are left as they are.
 */
export async function rebuildEvents(db: Database, events: EventLog): Promise<{ before: number; after: number }> {
  const { AppEvent, User, CreditEntry, BacktestRun } = db.models;
  const before = await AppEvent.count();
  const write = (batch: EventInput[]) => db.transaction((t) => events.recordMany(batch, t));

  for (let lastId = 0; ; ) {
    const users = await User.findAll({ where: { id: { [Op.gt]: lastId } }, order: [['id', 'ASC']], limit: BATCH, attributes: ['id', 'createdAt', 'deletedAt'] });
    if (users.length === 0) break;
    await write(users.flatMap((u) => [signupEvent(u), ...(u.deletedAt ? [deletionEvent(u.id, u.deletedAt, 'unknown')] : [])]));
    lastId = users[users.length - 1].id;
  }
  for (let lastId = 0; ; ) {
    const entries = await CreditEntry.findAll({ where: { id: { [Op.gt]: lastId } }, order: [['id', 'ASC']], limit: BATCH });
    if (entries.length === 0) break;
    await write(entries.map(ledgerEvent).filter((e): e is EventInput => e !== null));
    lastId = entries[entries.length - 1].id;
  }
  for (let lastId = 0; ; ) {
    const runs = await BacktestRun.findAll({ where: { id: { [Op.gt]: lastId }, status: 'done' }, order: [['id', 'ASC']], limit: BATCH });
    if (runs.length === 0) break;
    await write(runs.map(backtestEvent));
    lastId = runs[runs.length - 1].id;
  }
  await rebuildFailedPayments(db, write);
  await rebuildRefunds(db, write);
  return { before, after: await AppEvent.count() };
}

interface PaymentRow {
  id: number;
  reference: string;
  provider: string;
  user_id: number | null;
  offer_id: string | null;
  amount_expected_cents: number | null;
  failure_kind: string | null;
  updated_at: Date | string;
}

/** Failed and refused payment attempts, read with plain SQL: the table belongs to the payments code. */
async function rebuildFailedPayments(db: Database, write: (batch: EventInput[]) => Promise<void>): Promise<void> {
  const tables = ((await db.sequelize.getQueryInterface().showAllTables()) as unknown[]).map((t) => (typeof t === 'string' ? t : (t as { tableName: string }).tableName));
  if (!tables.includes('payments')) return;
  for (let lastId = 0; ; ) {
    const rows = await db.sequelize.query<PaymentRow>(
      "SELECT id, reference, provider, user_id, offer_id, amount_expected_cents, failure_kind, updated_at FROM payments WHERE status IN ('failed', 'refused') AND id > ? ORDER BY id LIMIT ?",
      { replacements: [lastId, BATCH], type: QueryTypes.SELECT },
    );
    if (rows.length === 0) break;
    await write(
      rows.map((r) =>
        failedPaymentEvent({ reference: r.reference, provider: r.provider, userId: r.user_id, offerId: r.offer_id, amountCents: r.amount_expected_cents, failureKind: r.failure_kind, at: new Date(r.updated_at) }),
      ),
    );
    lastId = rows[rows.length - 1].id;
  }
}

interface RefundedRow {
  id: number;
  reference: string;
  provider: string;
  user_id: number | null;
  offer_id: string | null;
  amount_received_cents: number | null;
  amount_expected_cents: number | null;
  refunded_cents: number;
  disputed_cents: number;
  dispute_status: string | null;
  credits_reversed: number;
  updated_at: Date | string;
}

/**
 * The refund events of paid payments refunded or disputed (one per payment, the money gone back
 * so far, 0 for a dispute won, dated by the row's last update: after its payment, only refunds
 * and disputes change a paid row, and only when they change something). Skipped before migration
 * 0009, whose columns it reads.
 */
async function rebuildRefunds(db: Database, write: (batch: EventInput[]) => Promise<void>): Promise<void> {
  const columns = await db.sequelize.getQueryInterface().describeTable('payments').catch(() => ({}) as Record<string, unknown>);
  if (!('refunded_cents' in columns)) return;
  for (let lastId = 0; ; ) {
    const rows = await db.sequelize.query<RefundedRow>(
      "SELECT id, reference, provider, user_id, offer_id, amount_received_cents, amount_expected_cents, refunded_cents, disputed_cents, dispute_status, credits_reversed, updated_at FROM payments WHERE status = 'paid' AND (refunded_cents > 0 OR disputed_cents > 0 OR dispute_status IS NOT NULL) AND id > ? ORDER BY id LIMIT ?",
      { replacements: [lastId, BATCH], type: QueryTypes.SELECT },
    );
    if (rows.length === 0) break;
    await write(
      rows.map((r) => {
        const cents = reversedCents({ provider: r.provider, paidCents: Number(r.amount_received_cents ?? r.amount_expected_cents ?? 0), refundedCents: Number(r.refunded_cents), disputedCents: Number(r.disputed_cents) });
        return refundEvent({ reference: r.reference, provider: r.provider, userId: r.user_id, offerId: r.offer_id, reversedCents: cents, creditsReversed: Number(r.credits_reversed), disputeStatus: r.dispute_status, at: new Date(r.updated_at) });
      }),
    );
    lastId = rows[rows.length - 1].id;
  }
}
