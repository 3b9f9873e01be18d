import { Op } from 'sequelize';
import type { Database } from '../db/database.js';
import { backtestEvent, deletionEvent, ledgerEvent, signupEvent, type EventInput, type EventLog } from './log.js';

const BATCH = 1000;

/**
 * Refills the event log from the tables that keep the facts (docs/admin.md, "Rebuild"): accounts
 * (sign-ups, deletions), the credit ledger (purchases, credits offered and spent) and finished
 * backtests, through the same mappers as the live recording, so an event already there is not
 * recorded twice and a rebuild after a reset gives back what the live log had. Logins, daily
 * activity and unsubscriptions exist nowhere else and are left as they are.
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
  return { before, after: await AppEvent.count() };
}
