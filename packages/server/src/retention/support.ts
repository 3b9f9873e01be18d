import { Op, type Transaction } from 'sequelize';
import { normalizeEmail } from '../auth/rules.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { deleteDue } from './bounded.js';

/**
 * How long a message sent to support is kept after its receipt (docs/server.md "Data retention"):
 * long enough to answer it, to read it again beside a later complaint or a payment disputed on the
 * same matter, and to cover an account archived 12 months after its deletion; after that nothing
 * the operator must keep depends on it.
 */
export const SUPPORT_KEPT_MONTHS = 24;

/** The moment before which a message is old enough to go: `now` less SUPPORT_KEPT_MONTHS calendar months. */
export function supportCutoff(now: Date): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - SUPPORT_KEPT_MONTHS);
  return cutoff;
}

/** The support messages received more than 24 months ago, at most `limit` a round (oldest first). */
export function expireSupportMessages(db: Database, clock: Clock, limit: number): Promise<number> {
  return deleteDue(db, db.models.SupportMessage, { createdAt: { [Op.lt]: supportCutoff(clock.now()) } }, [['createdAt', 'ASC'], ['id', 'ASC']], limit);
}

/**
 * At an account's erasure (users/erasure.ts, in its transaction, after the row is cleared): the
 * messages it sent signed in go, and so do those sent signed out with its address, unless the
 * address is still named by a live account or by another deleted account not yet erased (as the
 * address's re-creation counts are; that account's own erasure takes them later). Removed, not
 * anonymised: the free text is the message, and it names its sender as often as not.
 * Messages are matched on the address's one spelling (auth/rules.ts normalizeEmail), since the
 * form stores it as typed.
 */
export async function forgetSupportMessages(db: Database, userId: number, address: string | null, t: Transaction): Promise<number> {
  const { SupportMessage, User } = db.models;
  const q = (name: string) => db.sequelize.getQueryInterface().quoteIdentifier(name);
  const raw = db.raw(t);
  // Plain reads, then deletes by id: on MariaDB a DELETE by user_id or by address would lock the
  // index range around it, and hold other senders' messages waiting on the erasure.
  const own = await raw.all<{ id: number | string }>(`SELECT ${q('id')} FROM ${q('support_messages')} WHERE ${q('user_id')} = ${Number(userId)}`);
  const ids = own.map((row) => Number(row.id));
  if (address) {
    const named = await User.count({ where: { [Op.or]: [{ email: address }, { deletedEmail: address, erasedAt: null }] }, transaction: t });
    // LOWER narrows the candidates on both databases (SQLite compares case-sensitively, MariaDB by
    // its collation, accent-blind too); the exact match on the normalised form decides.
    const candidates =
      named > 0
        ? []
        : await raw.all<{ id: number | string; email: string }>(
            `SELECT ${q('id')}, ${q('email')} FROM ${q('support_messages')} WHERE ${q('user_id')} IS NULL AND LOWER(${q('email')}) = ${db.literal(address.toLowerCase())}`,
          );
    for (const row of candidates) if (normalizeEmail(row.email) === address) ids.push(Number(row.id));
  }
  if (ids.length === 0) return 0;
  return SupportMessage.destroy({ where: { id: ids, userId: { [Op.or]: [userId, null] } }, transaction: t });
}
