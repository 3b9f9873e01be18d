import { Op } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { User } from '../db/models.js';
import type { EventLog } from './log.js';

/** How often a user's last request is written: often enough for "active now" (15 minutes). */
export const PRESENCE_INTERVAL_MS = 5 * 60_000;

/**
 * Who is using the product: each user's last request (`users.last_seen_at`, written at most every
 * five minutes, guarded on the old value so concurrent requests never wait on each other) and one
 * `active` event per user and UTC day, the source of the daily, weekly and monthly active users.
 */
export class Presence {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly log: (message: string) => void = () => {},
  ) {}

  async seen(user: User): Promise<void> {
    const now = this.clock.now();
    const last = user.lastSeenAt;
    const day = now.toISOString().slice(0, 10);
    if (last && now.getTime() - last.getTime() < PRESENCE_INTERVAL_MS && last.toISOString().slice(0, 10) === day) return;
    try {
      await this.db.transaction((t) =>
        this.db.models.User.update({ lastSeenAt: now }, { where: { id: user.id, lastSeenAt: last ?? { [Op.is]: null } }, transaction: t }),
      );
      user.lastSeenAt = now;
      if (!last || last.toISOString().slice(0, 10) !== day) {
        await this.events.record({ kind: 'active', userId: user.id, at: now, reference: `active:${user.id}:${day}` });
      }
    } catch (err) {
      // Presence is statistics: it never fails the request it rides on.
      this.log(`presence of user ${user.id} not recorded: ${(err as Error).message}`);
    }
  }
}
