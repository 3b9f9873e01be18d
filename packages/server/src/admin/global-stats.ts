import { Op } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import { ACTIVE_NOW_MS } from '../events/statistics.js';

const BATCH = 1000;

/**
 * The fallback totals (`GET /api/admin/global_stats`): all-time figures read from the tables that
 * keep the facts (accounts, the credit ledger, backtest runs) rather than from the event log, so
 * they hold even right after a reset of the statistics.
 */
export async function globalStats(db: Database, clock: Clock) {
  const { User, CreditEntry, BacktestRun } = db.models;
  const live = { role: 'user', deletedAt: null };
  const paid = { kind: 'grant', reason: ['purchase', 'subscription'] };
  const [totalUsers, deletedUsers, activeNow, backtests, bought, offered, spent, balances] = await Promise.all([
    User.count({ where: live }),
    User.count({ where: { role: 'user', deletedAt: { [Op.ne]: null } } }),
    User.count({ where: { ...live, lastSeenAt: { [Op.gte]: new Date(clock.now().getTime() - ACTIVE_NOW_MS) } } }),
    BacktestRun.count({ where: { status: 'done' } }),
    CreditEntry.sum('amount', { where: paid }),
    CreditEntry.sum('amount', { where: { kind: 'grant', reason: ['verification', 'admin', 'bonus'] } }),
    CreditEntry.sum('amount', { where: { kind: { [Op.ne]: 'grant' } } }),
    User.sum('credits', { where: { deletedAt: null } }),
  ]);
  // The amount paid lives in each purchase row's metadata: read in batches, only that column.
  let cents = 0;
  for (let lastId = 0; ; ) {
    const rows = await CreditEntry.findAll({ where: { ...paid, id: { [Op.gt]: lastId } }, attributes: ['id', 'meta'], order: [['id', 'ASC']], limit: BATCH });
    if (rows.length === 0) break;
    for (const row of rows) {
      const amount = parseStoredObject<{ amount_eur: number }>(row.meta).amount_eur;
      if (typeof amount === 'number' && Number.isFinite(amount)) cents += Math.round(amount * 100);
    }
    lastId = rows[rows.length - 1].id;
  }
  return {
    source: 'tables',
    total_sales_eur: cents / 100,
    total_credits_bought: Number(bought ?? 0),
    credits_offered: Number(offered ?? 0),
    credits_spent: -Number(spent ?? 0),
    credits_in_balances: Number(balances ?? 0),
    backtests_count: backtests,
    total_users: totalUsers,
    deleted_users: deletedUsers,
    active_now: activeNow,
  };
}
