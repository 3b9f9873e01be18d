import { Op, type Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { forgetSupportMessages } from '../retention/support.js';

export interface ErasureDeps {
  db: Database;
  clock: Clock;
  log: (message: string) => void;
}

/** How long a deleted account's row keeps its personal fields: the legal notice's 12 months. */
export const KEPT_MONTHS = 12;

/** `now` less `months` calendar months (UTC): the account limits are counted in calendar months. */
export function monthsBefore(now: Date, months: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** The moment before which a deletion is old enough to erase: `now` less KEPT_MONTHS calendar months. */
export function erasureCutoff(now: Date): Date {
  return monthsBefore(now, KEPT_MONTHS);
}

/**
 * Erases the deleted accounts archived for more than 12 months (docs/server.md "Deleting an
 * account", the legal notice's promise): every personal field still on the `users` row is cleared
 * (the deleted address, names, subscription id, dates of activity) and `erased_at` set, so it is
 * done once. The row itself stays, with its id, plan, balance and dates of creation and deletion:
 * the credit ledger, payments and invoices name it (the accounting record). The address's
 * re-creation counts (`email_recreations`, keyed by the plain address) go with it when nothing
 * newer needs them (`forgetAddress`). At most `limit` accounts a round, each in a transaction that
 * locks the row and checks it again, so two servers sweeping at once erase it once.
 */
export async function eraseExpired(deps: ErasureDeps, limit = 20): Promise<number> {
  const { db, clock } = deps;
  const { User } = db.models;
  const cutoff = erasureCutoff(clock.now());
  const due = { erasedAt: null, deletedAt: { [Op.ne]: null, [Op.lt]: cutoff } };
  const rows = await User.findAll({ where: due, attributes: ['id'], order: [['id', 'ASC']], limit: Math.max(1, Math.floor(limit)) });
  let erased = 0;
  for (const { id } of rows) {
    const done = await db.transaction(async (t) => {
      const user = await User.findOne({ where: { id, ...due }, attributes: ['id', 'deletedEmail'], transaction: t, lock: t.LOCK.UPDATE });
      if (!user) return false; // erased by another server meanwhile
      const address = user.deletedEmail;
      // first_name and last_name are NOT NULL (0001-accounts): emptied rather than nulled.
      await User.update(
        {
          deletedEmail: null,
          email: null,
          username: null,
          passwordHash: null,
          firstName: '',
          lastName: '',
          emailVerifiedAt: null,
          subscriptionId: null,
          subscriptionProvider: null,
          subscriptionRenewDate: null,
          subscriptionAutoRenew: false,
          lastSeenAt: null,
          erasedAt: clock.now(),
        },
        { where: { id }, transaction: t },
      );
      if (address) await forgetAddress(db, address, t);
      await forgetSupportMessages(db, id, address, t);
      return true;
    });
    if (!done) continue;
    erased++;
    deps.log(`account ${id}: deleted more than ${KEPT_MONTHS} months ago, its personal fields erased`);
  }
  return erased;
}

/**
 * The address's re-creation counts (users/recreations.ts) name it in the clear; they are dropped
 * with the erasure of the last archived account that names it. Kept while a live account uses the
 * address (its row names it anyway, and its deletion would count toward the limit) or another
 * archived account, not yet erased, names it (its own erasure drops them later). Every deletion
 * archives an account naming the address for 12 months, so the anti-abuse limit holds 12 months
 * after the address's last deletion, and no address outlives the erasure of its last deleted
 * account (docs/server.md "Deleting an account").
 */
async function forgetAddress(db: Database, address: string, t: Transaction): Promise<void> {
  const { User, EmailRecreation } = db.models;
  const named = await User.count({ where: { [Op.or]: [{ email: address }, { deletedEmail: address, erasedAt: null }] }, transaction: t });
  if (named > 0) return;
  await EmailRecreation.destroy({ where: { email: address }, transaction: t });
}
