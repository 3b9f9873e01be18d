import { Op, literal } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { ACTIVE_NOW_MS } from '../events/statistics.js';

/**
 * The fallback totals (`GET /api/admin/global_stats`): all-time figures read from the tables that
 * keep the facts (accounts, the credit ledger, backtest runs, payments) rather than from the event
 * log, so they hold even right after a reset of the statistics. Every figure is one SQL aggregate.
 */
/**
 * The cents gone back to buyers (refunds, disputes open or lost) of one payment row, as
 * `reversedCents` (payments/money.ts) computes them: PayPal the larger of refunded and disputed,
 * the others their sum, never more than was paid. Plain CASE: the same on SQLite and MySQL.
 */
const PAID = 'COALESCE(amount_received_cents, amount_expected_cents, 0)';
const BACK = "CASE WHEN provider = 'paypal' THEN (CASE WHEN refunded_cents > disputed_cents THEN refunded_cents ELSE disputed_cents END) ELSE refunded_cents + disputed_cents END";
const REVERSED_SQL = `SUM(CASE WHEN ${BACK} > ${PAID} THEN ${PAID} ELSE ${BACK} END)`;

export async function globalStats(db: Database, clock: Clock) {
  const { User, CreditEntry, BacktestRun, Payment } = db.models;
  const live = { role: 'user', deletedAt: null };
  const paid = { kind: 'grant', reason: ['purchase', 'subscription'] };
  const [totalUsers, deletedUsers, activeNow, backtests, bought, offered, spent, balances, cents, failed, reversed] = await Promise.all([
    User.count({ where: live }),
    User.count({ where: { role: 'user', deletedAt: { [Op.ne]: null } } }),
    User.count({ where: { ...live, lastSeenAt: { [Op.gte]: new Date(clock.now().getTime() - ACTIVE_NOW_MS) } } }),
    BacktestRun.count({ where: { status: 'done' } }),
    CreditEntry.sum('amount', { where: paid }),
    CreditEntry.sum('amount', { where: { kind: 'grant', reason: ['verification', 'admin', 'bonus'] } }),
    CreditEntry.sum('amount', { where: { kind: { [Op.ne]: 'grant' } } }),
    User.sum('credits', { where: { deletedAt: null } }),
    Payment.sum('amountReceivedCents', { where: { status: 'paid' } }),
    Payment.count({ where: { status: ['failed', 'refused'] } }),
    Payment.findAll({ attributes: [[literal(REVERSED_SQL), 'cents']], where: { status: 'paid', [Op.or]: [{ refundedCents: { [Op.gt]: 0 } }, { disputedCents: { [Op.gt]: 0 } }] }, raw: true }) as unknown as Promise<{ cents: unknown }[]>,
  ]);
  const sales = Math.round(Number(cents ?? 0));
  const refunds = Math.round(Number(reversed[0]?.cents ?? 0));
  return {
    source: 'tables',
    total_sales_eur: sales / 100,
    refunds_eur: refunds / 100,
    net_sales_eur: (sales - refunds) / 100,
    total_credits_bought: Number(bought ?? 0),
    credits_offered: Number(offered ?? 0),
    credits_spent: -Number(spent ?? 0),
    credits_in_balances: Number(balances ?? 0),
    backtests_count: backtests,
    total_users: totalUsers,
    deleted_users: deletedUsers,
    active_now: activeNow,
    failed_payments: failed,
  };
}
