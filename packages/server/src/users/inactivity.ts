import { OFFERS, isSubscriber } from '@bt/core/catalogue';
import { formatDayFr } from '@bt/core/format';
import { Op, literal, type Transaction, type WhereOptions } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { User } from '../db/models.js';
import { inactivityWarningMail, type Mailer } from '../mail/index.js';
import { monthsBefore } from './erasure.js';
import type { Profiles } from './profile.js';

export interface InactivityDeps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  profiles: Pick<Profiles, 'deleteAccount'>;
  /** The web app's address, for the sign-in link (by reference: read at each mail). */
  urls: { publicUrl: string };
  log: (message: string) => void;
}

/** How long an account goes without activity before it is inactive: the CNIL's usual 3 years. */
export const INACTIVE_MONTHS = 36;
/** How long the warning comes before the archiving. */
export const WARNING_DAYS = 30;
/**
 * A warning recorded this long ago and still not mailed, while a mailer is set, was left by a
 * process stopped between the record and the mail: it is claimed and mailed again, with its own 30
 * days. Far longer than one mail takes, so a sweep never claims another server's mail in flight.
 */
export const UNMAILED_CLAIM_MS = 10 * 60 * 1000;

const DAY_MS = 24 * 3600 * 1000;
const SUBSCRIPTION_PLANS = OFFERS.filter((o) => isSubscriber(o.id)).map((o) => o.id);

/** The moment before which an account's last activity makes it inactive: `now` less INACTIVE_MONTHS calendar months. */
export function inactivityCutoff(now: Date): Date {
  return monthsBefore(now, INACTIVE_MONTHS);
}

/** An account's last activity: its last request (events/presence.ts), or its creation if it made none. */
export function lastActivity(user: Pick<User, 'lastSeenAt' | 'createdAt'>): Date {
  return user.lastSeenAt ?? user.createdAt;
}

/** The day a warning given at `warnedAt` lets the sweep archive the account (the date the mail gives). */
export function archiveDate(warnedAt: Date): Date {
  return new Date(warnedAt.getTime() + WARNING_DAYS * DAY_MS);
}

/**
 * Inactive accounts (docs/server.md "Inactive accounts", the legal notice's "supprimé ou
 * inactif"): a live user account (not an admin) with no activity for INACTIVE_MONTHS and no
 * subscription in force is warned once, WARNING_DAYS before its archiving; if it is still not
 * seen then, it is archived as its owner's deletion would (Profiles.deleteAccount), and erased 12
 * months later with the other deleted accounts (users/erasure.ts). The minute sweep runs `sweep`:
 * at most `limit` warnings and `limit` archivings a round, each account in a transaction that
 * locks its row and checks it again, so two servers sweeping at once warn once and archive once.
 */
export class AccountInactivity {
  constructor(private readonly deps: InactivityDeps) {}

  async sweep(limit = 20): Promise<{ warned: number; archived: number }> {
    const bounded = Math.max(1, Math.floor(limit));
    const warned = await this.warnDue(bounded);
    const archived = await this.archiveDue(bounded);
    return { warned, archived };
  }

  /** The accounts inactive for INACTIVE_MONTHS and not yet warned in this period: warned, mailed if a mailer is set. */
  private async warnDue(limit: number): Promise<number> {
    const { db, clock, mailer, log } = this.deps;
    const { User } = db.models;
    const rows = await User.findAll({ where: this.dueForWarning(clock.now()), attributes: ['id'], order: [['id', 'ASC']], limit });
    let warned = 0;
    for (const { id } of rows) {
      // Whole seconds: MySQL's DATETIME keeps no more, and the claim is found again by this value.
      const at = new Date(Math.floor(clock.now().getTime() / 1000) * 1000);
      const claimed = await db.transaction(async (t) => {
        const user = await User.findOne({ where: { id, ...this.dueForWarning(at) }, transaction: t, lock: t.LOCK.UPDATE });
        if (!user) return null; // warned by another server meanwhile, or seen
        await User.update({ inactivityWarnedAt: at, inactivityMailedAt: null }, { where: { id }, transaction: t });
        return user;
      });
      if (!claimed) continue;
      const since = lastActivity(claimed);
      const archiveOn = archiveDate(at);
      const about = `account ${id}: inactive since ${since.toISOString()}, warned of its archiving on ${archiveOn.toISOString()}`;
      if (!mailer.configured || !claimed.email) {
        // Recorded all the same: the archiving waits the same 30 days (docs/server.md "Inactive accounts").
        log(`${about}, not mailed (${claimed.email ? 'no mailer configured' : 'no address'})`);
        warned++;
        continue;
      }
      const mail = inactivityWarningMail(claimed.email, {
        firstName: claimed.firstName,
        lastActivity: formatDayFr(since.getTime()),
        archiveOn: formatDayFr(archiveOn.getTime()),
        credits: claimed.credits,
        signInUrl: `${this.deps.urls.publicUrl}/login`,
      });
      try {
        await mailer.send(mail);
      } catch (err) {
        // The claim is given back, so the next round warns again with its full 30 days; the rest
        // of this round waits too (a mail server down refuses them all).
        await User.update(
          { inactivityWarnedAt: claimed.inactivityWarnedAt, inactivityMailedAt: claimed.inactivityMailedAt },
          { where: { id, inactivityWarnedAt: at } },
        );
        log(`account ${id}: inactivity warning not mailed (${(err as Error).message}): the next round tries again`);
        break;
      }
      await User.update({ inactivityMailedAt: at }, { where: { id, inactivityWarnedAt: at } });
      log(`${about}, mailed`);
      warned++;
    }
    return warned;
  }

  /** The accounts warned WARNING_DAYS ago and not seen since: archived as a deletion, by Profiles.deleteAccount. */
  private async archiveDue(limit: number): Promise<number> {
    const { db, clock, log, profiles } = this.deps;
    const { User } = db.models;
    const rows = await User.findAll({ where: this.dueForArchiving(clock.now()), order: [['id', 'ASC']], limit });
    let archived = 0;
    for (const row of rows) {
      const done = await profiles.deleteAccount(row, 'inactivity', (t) => this.stillDue(row, t));
      if (!done) continue;
      archived++;
      log(`account ${row.id}: inactive since ${lastActivity(row).toISOString()}, archived`);
    }
    return archived;
  }

  /**
   * In the archiving's transaction: the row locked and checked again (not seen, not subscribed,
   * not archived by another server meanwhile). A session issued or used since the warning is
   * activity too (a sign-in with no request after it writes no presence): recorded as the
   * account's last, which ends this period.
   */
  private async stillDue(row: User, t: Transaction): Promise<boolean> {
    const { User, ApiKey } = this.deps.db.models;
    const user = await User.findOne({ where: { id: row.id, ...this.dueForArchiving(this.deps.clock.now()) }, transaction: t, lock: t.LOCK.UPDATE });
    if (!user || user.email !== row.email) return false;
    // last_used_at, on the app's clock (auth/sessions.ts): set when the key is issued, refreshed as it is used.
    const signIn = await ApiKey.findOne({ where: { userId: row.id, lastUsedAt: { [Op.gte]: user.inactivityWarnedAt! } }, order: [['lastUsedAt', 'DESC']], transaction: t });
    if (!signIn) return true;
    await User.update({ lastSeenAt: signIn.lastUsedAt }, { where: { id: row.id }, transaction: t });
    return false;
  }

  /** Live user accounts, no activity since the cutoff, no subscription in force, not warned in this period. */
  private dueForWarning(now: Date): WhereOptions<User> {
    const cutoff = inactivityCutoff(now);
    return {
      role: 'user',
      deletedAt: null,
      [Op.and]: [
        { [Op.or]: [{ lastSeenAt: { [Op.lte]: cutoff } }, { lastSeenAt: null, createdAt: { [Op.lte]: cutoff } }] },
        // A warning older than the last activity belongs to an earlier period.
        { [Op.or]: [{ inactivityWarnedAt: null }, literal(`${this.q('inactivity_warned_at')} <= ${this.activity()}`), ...this.unmailedClaim(now)] },
        ...this.notSubscribed(now),
      ],
    };
  }

  /** Live user accounts warned WARNING_DAYS ago or more, not seen since the warning, no subscription in force. */
  private dueForArchiving(now: Date): WhereOptions<User> {
    return {
      role: 'user',
      deletedAt: null,
      inactivityWarnedAt: { [Op.lte]: new Date(now.getTime() - WARNING_DAYS * DAY_MS) },
      [Op.and]: [
        literal(`${this.q('inactivity_warned_at')} > ${this.activity()}`),
        ...this.notSubscribed(now),
        // With a mailer, only a warning that was mailed (or had no address to go to) counts.
        ...(this.deps.mailer.configured ? [{ [Op.or]: [{ inactivityMailedAt: { [Op.ne]: null } }, { email: null }] }] : []),
      ],
    };
  }

  /** With a mailer: a warning of this period recorded UNMAILED_CLAIM_MS ago and never mailed, to an address. */
  private unmailedClaim(now: Date): WhereOptions<User>[] {
    if (!this.deps.mailer.configured) return [];
    return [
      {
        inactivityMailedAt: null,
        email: { [Op.ne]: null },
        inactivityWarnedAt: { [Op.lte]: new Date(now.getTime() - UNMAILED_CLAIM_MS) },
        [Op.and]: [literal(`${this.q('inactivity_warned_at')} > ${this.activity()}`)],
      },
    ];
  }

  /** No renewal set, and no paid period still running (users/presenter.ts effectivePlan, docs/payments.md "Subscriptions"). */
  private notSubscribed(now: Date): WhereOptions<User>[] {
    return [{ subscriptionAutoRenew: false }, { [Op.or]: [{ plan: { [Op.notIn]: SUBSCRIPTION_PLANS } }, { subscriptionRenewDate: { [Op.lte]: now } }] }];
  }

  private activity(): string {
    return `COALESCE(${this.q('last_seen_at')}, ${this.q('created_at')})`;
  }

  private q(name: string): string {
    return this.deps.db.sequelize.getQueryInterface().quoteIdentifier(name);
  }
}
