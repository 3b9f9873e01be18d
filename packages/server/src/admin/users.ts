import { col, fn, Op, where as where_, type Order } from 'sequelize';
import { badRequest, conflict, notFound } from '../app/errors.js';
import type { Clock } from '../clock/index.js';
import { InsufficientCreditsError, LedgerError, type CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import type { CreditEntry, User } from '../db/models.js';
import { userLabels } from '../events/user-labels.js';
import type { Profiles } from '../users/profile.js';
import { isReservedUsername } from '../auth/rules.js';
import { effectivePlan, presentHistoryEntry } from '../users/presenter.js';
import { ADMIN_MSG } from './messages.js';
import { AdminSettings } from './settings.js';

/** The orders of the Users tab (docs/admin.md, "Users and history"). */
export const USER_SORTS = ['newest', 'email', 'username', 'credits'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/**
 * Each sort in SQL, id last: ties are broken by a unique column, so consecutive pages neither
 * overlap nor skip a row. LOWER() makes the text sorts case-insensitive on SQLite too (MariaDB's
 * collation already is); a missing username (NULL) comes first on both.
 */
const USER_ORDERS: Record<UserSort, Order> = {
  newest: [['id', 'DESC']],
  email: [[fn('LOWER', col('email')), 'ASC'], ['id', 'ASC']],
  username: [[fn('LOWER', col('username')), 'ASC'], ['id', 'ASC']],
  credits: [['credits', 'DESC'], ['id', 'ASC']],
};

/** The ledger id up to which the purchase history was reset (docs/admin.md, "History"). */
const HISTORY_RESET = 'history_reset_ledger_id';

const OFFERED = new Set(['verification', 'bonus']);

/** How the history names the way credits came or went. */
function methodOf(entry: CreditEntry): string {
  const meta = parseStoredObject<{ method: string }>(entry.meta);
  if (typeof meta.method === 'string') return meta.method;
  if (entry.kind === 'refund') return 'remboursement';
  if (entry.reason === 'admin') return 'admin';
  if (entry.kind === 'grant') return OFFERED.has(entry.reason) ? 'offert' : entry.reason;
  return 'crédits';
}

/** One history line, as the console's history tabs show it (docs/admin.md, "Users and history"). */
export function historyLine(entry: CreditEntry) {
  const shown = presentHistoryEntry(entry);
  // Every ledger row has its change; a backtest charge is -2 (the console's default for one without).
  const delta = entry.amount ?? (entry.reason === 'backtest' ? -2 : 0);
  return {
    id: entry.id,
    date: shown.date,
    label: shown.label,
    type: shown.type,
    method: methodOf(entry),
    price_eur: shown.amount,
    price_paid: shown.amount,
    credits_delta: delta,
    balance_after: entry.balanceAfter,
    reference: entry.reference,
  };
}

/** The Users and History tabs: accounts, their credits and histories, deletion, the history reset. */
export class AdminUsers {
  private readonly settings: AdminSettings;

  constructor(
    private readonly deps: { db: Database; clock: Clock; ledger: CreditLedger; profiles: Profiles },
  ) {
    this.settings = new AdminSettings(deps.db);
  }

  /** Live accounts in the order asked for (newest first by default); `q` searches e-mail and username. */
  async list(page: { limit: number; offset: number }, q: string, sort: UserSort = 'newest') {
    const { User } = this.deps.db.models;
    const where: Record<string | symbol, unknown> = { deletedAt: null };
    if (q) {
      // LIKE's wildcards are dropped from the search rather than escaped (the dialects escape differently).
      const like = `%${q.toLowerCase().replace(/[%_\\]/g, '')}%`;
      // LOWER() on the columns: the search ignores letter case on every collation (the address
      // columns are binary on MySQL since migration 0007, and SQLite's LIKE folds ASCII only).
      where[Op.or] = [where_(fn('LOWER', col('email')), Op.like, like), where_(fn('LOWER', col('username')), Op.like, like)];
    }
    const [total, users] = await Promise.all([User.count({ where }), User.findAll({ where, order: USER_ORDERS[sort], limit: page.limit, offset: page.offset })]);
    const now = this.deps.clock.now();
    return { users: users.map((u) => this.present(u, now)), total };
  }

  present(user: User, now = this.deps.clock.now()) {
    return {
      id: user.id,
      email: user.email,
      username: user.username,
      plan: effectivePlan(user, now),
      credits: user.credits,
      // bt has no blocking: no account is ever blocked (docs/admin.md).
      is_blocked: false,
      role: user.role,
      // A user's name that is (or looks like) a reserved one, taken before the rule (docs/admin.md
      // #the-admin-account): not the team's. The admin's own account holds its name by right.
      reserved_username: user.role !== 'admin' && !!user.username && isReservedUsername(user.username),
      email_verified: user.emailVerified,
      created_at: user.createdAt.toISOString(),
      last_seen: user.lastSeenAt ? user.lastSeenAt.toISOString() : null,
    };
  }

  /** A live account, or 404. */
  async user(userId: number): Promise<User> {
    const user = await this.deps.db.models.User.findByPk(userId);
    if (!user || user.deletedAt) throw notFound(ADMIN_MSG.userNotFound);
    return user;
  }

  /** A user's history (every ledger row since the last reset), newest first. */
  async history(userId: number, page: { limit: number; offset: number }) {
    const user = await this.deps.db.models.User.findByPk(userId);
    if (!user) throw notFound(ADMIN_MSG.userNotFound);
    const where = { userId, id: { [Op.gt]: await this.resetMark() } };
    const { CreditEntry } = this.deps.db.models;
    const [total, rows] = await Promise.all([CreditEntry.count({ where }), CreditEntry.findAll({ where, order: [['id', 'DESC']], limit: page.limit, offset: page.offset })]);
    return { user: { ...this.present(user), deleted: user.deletedAt !== null }, history: rows.map(historyLine), total };
  }

  async addCredits(userId: number, amount: number, adminId: number): Promise<number> {
    try {
      return (await this.deps.ledger.grant(userId, amount, 'admin', { meta: { by: adminId } })).balance;
    } catch (err) {
      // The ledger refuses an unknown or deleted account.
      if (err instanceof LedgerError) throw notFound(ADMIN_MSG.userNotFound);
      throw err;
    }
  }

  /** Takes credits back through the ledger's guarded spend: never below zero (409 otherwise). */
  async removeCredits(userId: number, amount: number, adminId: number): Promise<number> {
    try {
      return (await this.deps.ledger.debit(userId, amount, 'admin', { meta: { by: adminId } })).balance;
    } catch (err) {
      if (err instanceof LedgerError) throw notFound(ADMIN_MSG.userNotFound);
      if (err instanceof InsufficientCreditsError) throw conflict(ADMIN_MSG.notEnoughToRemove(amount, err.balance));
      throw err;
    }
  }

  /** Archives an account as its owner would (keys, tokens and identities removed, ledger kept). */
  async delete(userId: number, admin: User): Promise<void> {
    if (userId === admin.id) throw badRequest(ADMIN_MSG.cannotDeleteSelf);
    const user = await this.user(userId);
    if (user.role === 'admin') throw badRequest(ADMIN_MSG.cannotDeleteAdmin);
    await this.deps.profiles.deleteAccount(user, 'admin');
  }

  /** Every user's history since the last reset, newest first. */
  async globalHistory(page: { limit: number; offset: number }) {
    const { CreditEntry } = this.deps.db.models;
    const where = { id: { [Op.gt]: await this.resetMark() } };
    const [total, rows] = await Promise.all([CreditEntry.count({ where }), CreditEntry.findAll({ where, order: [['id', 'DESC']], limit: page.limit, offset: page.offset })]);
    const names = await userLabels(this.deps.db, rows.map((r) => r.userId));
    return { items: rows.map((r) => ({ username: names.get(r.userId) ?? `#${r.userId}`, user_id: r.userId, ...historyLine(r) })), total };
  }

  /**
   * Resets the purchase history shown to admins: the histories start after the ledger's last row.
   * The ledger itself, the balances and the subscriptions are untouched (it is the accounting
   * record, docs/server.md "Credits").
   */
  async resetHistory(): Promise<{ hidden: number }> {
    const { CreditEntry } = this.deps.db.models;
    const before = await this.resetMark();
    const last = Number((await CreditEntry.max('id')) ?? 0);
    await this.settings.set(HISTORY_RESET, String(Math.max(last, before)));
    return { hidden: await CreditEntry.count({ where: { id: { [Op.gt]: before, [Op.lte]: last } } }) };
  }

  private async resetMark(): Promise<number> {
    return Number((await this.settings.get(HISTORY_RESET)) ?? 0) || 0;
  }
}
