import { Op } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { ACTIVE_NOW_MS } from '../events/statistics.js';

/**
 * The fallback totals (`GET /api/admin/global_stats`): all-time figures read from the tables that
 * keep the facts (accounts, the credit ledger, backtest runs, payments) rather than from the event
 * log, so they hold even right after a reset of the statistics. Every figure is one SQL aggregate.
 */
export async function globalStats(db: Database, clock: Clock) {
  const { User, CreditEntry, BacktestRun, Payment } = db.models;
  const live = { role: 'user', deletedAt: null };
  const paid = { kind: 'grant', reason: ['purchase', 'subscription'] };
  const [totalUsers, deletedUsers, activeNow, backtests, bought, offered, spent, balances, cents, failed] = await Promise.all([
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
  ]);
  return {
    source: 'tables',
    total_sales_eur: Math.round(Number(cents ?? 0)) / 100,
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
