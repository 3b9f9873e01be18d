import { Op, col, fn, type WhereOptions } from 'sequelize';
import { badRequest } from '../app/errors.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import type { AppEvent, EventKind, User } from '../db/models.js';
import { ADMIN_MSG } from '../admin/messages.js';
import { REASON_LABELS, effectivePlan } from '../users/presenter.js';
import { Breakdowns } from './breakdowns.js';
import { within, type StatsRange } from './ranges.js';
import { userLabels } from './user-labels.js';

/** A user counts as "active now" when one of their keys was used this recently. */
export const ACTIVE_NOW_MS = 15 * 60_000;

/** The overview KPIs, each with the rows its details show (docs/admin.md, "Overview"). */
export const KPIS = [
  'total_sales_eur',
  'total_credits_bought',
  'credits_offered',
  'backtests_count',
  'total_users',
  'new_users',
  'active_now',
  'deleted_users',
  'unsubscribed_users',
  'failed_payments',
  'refunds_eur',
] as const;
export type Kpi = (typeof KPIS)[number];

/** Short names the details routes and the console also use. */
const KPI_ALIASES: Record<string, Kpi> = {
  sales: 'total_sales_eur',
  credits: 'total_credits_bought',
  offered: 'credits_offered',
  backtests: 'backtests_count',
  users_all: 'total_users',
  users: 'total_users',
  deleted: 'deleted_users',
  unsubscribed: 'unsubscribed_users',
  failed: 'failed_payments',
  refunds: 'refunds_eur',
};

export function parseKpi(value: string): Kpi {
  if (!value) throw badRequest(ADMIN_MSG.kpiMissing);
  const kpi = (KPIS as readonly string[]).includes(value) ? (value as Kpi) : KPI_ALIASES[value];
  if (!kpi) throw badRequest(ADMIN_MSG.badKpi(value, [...KPIS, ...Object.keys(KPI_ALIASES)]));
  return kpi;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface DetailFilters {
  /** Backtests only: the heatmap cell (0 = Monday). */
  weekday?: number;
  hour?: number;
}

const euros = (cents: unknown) => Math.round(Number(cents ?? 0)) / 100;
const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/**
 * The statistics of the admin console over the event log (docs/admin.md): the overview, the
 * breakdowns, the rows behind each KPI. Counts and sums are computed by the database.
 */
export class Statistics {
  readonly breakdowns: Breakdowns;

  constructor(private readonly db: Database, private readonly clock: Clock) {
    this.breakdowns = new Breakdowns(db);
  }

  async overview(range: StatsRange) {
    const { AppEvent, User } = this.db.models;
    const rows = (await AppEvent.findAll({
      attributes: ['kind', [fn('COUNT', col('id')), 'count'], [fn('SUM', col('amount_cents')), 'cents'], [fn('SUM', col('credits')), 'credits']],
      where: { kind: ['purchase', 'refund', 'credits_offered', 'backtest', 'signup', 'deletion', 'unsubscription', 'failed_payment'], ...within(range) },
      group: ['kind'],
      raw: true,
    })) as unknown as { kind: EventKind; count: unknown; cents: unknown; credits: unknown }[];
    const of = (kind: EventKind) => rows.find((r) => r.kind === kind);
    const count = (kind: EventKind) => Number(of(kind)?.count ?? 0);
    const now = this.clock.now();
    const [totalUsers, activeNow] = await Promise.all([
      User.count({ where: this.usersAt(range) }),
      User.count({ where: { role: 'user', deletedAt: null, lastSeenAt: { [Op.gte]: new Date(now.getTime() - ACTIVE_NOW_MS) } } }),
    ]);
    const sales = Number(of('purchase')?.cents ?? 0);
    const refunds = Number(of('refund')?.cents ?? 0);
    return {
      total_sales_eur: euros(sales),
      // Refunds and disputes (money gone back) dated by their last change, not by the sale's day.
      refunds_eur: euros(refunds),
      net_sales_eur: euros(sales - refunds),
      total_credits_bought: Number(of('purchase')?.credits ?? 0),
      credits_offered: Number(of('credits_offered')?.credits ?? 0),
      backtests_count: count('backtest'),
      total_users: totalUsers,
      new_users: count('signup'),
      active_now: activeNow,
      deleted_users: count('deletion'),
      unsubscribed_users: count('unsubscription'),
      failed_payments: count('failed_payment'),
    };
  }

  /** Empties the event log; returns how many events it held. */
  reset(): Promise<number> {
    return this.db.transaction((t) => this.db.models.AppEvent.destroy({ where: {}, transaction: t }));
  }

  /** The rows behind one KPI, newest first. */
  async details(kpi: Kpi, range: StatsRange, page: Page, filters: DetailFilters = {}): Promise<{ columns: string[]; rows: Record<string, unknown>[]; total: number }> {
    switch (kpi) {
      case 'total_sales_eur':
        return this.eventRows('purchase', range, page, {}, ['date', 'user', 'label', 'method', 'amount_eur'], (e, user) => ({ date: iso(e.occurredAt), user, user_id: e.userId, label: e.label, method: e.method, amount_eur: euros(e.amountCents) }));
      case 'total_credits_bought':
        return this.eventRows('purchase', range, page, {}, ['date', 'user', 'label', 'credits'], (e, user) => ({ date: iso(e.occurredAt), user, user_id: e.userId, label: e.label, credits: e.credits }));
      case 'credits_offered':
        return this.eventRows('credits_offered', range, page, {}, ['date', 'user', 'label', 'credits'], (e, user) => ({ date: iso(e.occurredAt), user, user_id: e.userId, label: REASON_LABELS[e.method ?? ''] ?? e.label, credits: e.credits }));
      case 'backtests_count': {
        const where: WhereOptions = {};
        if (filters.weekday !== undefined) Object.assign(where, { weekday: filters.weekday });
        if (filters.hour !== undefined) Object.assign(where, { hour: filters.hour });
        return this.eventRows('backtest', range, page, where, ['date', 'user', 'label', 'symbol', 'timeframe', 'strategy', 'period'], (e, user) => ({
          date: iso(e.occurredAt),
          user,
          user_id: e.userId,
          label: e.label,
          symbol: e.symbol,
          timeframe: e.timeframe,
          strategy: e.strategy,
          period: parseStoredObject<{ period: string }>(e.meta).period ?? null,
          duration_ms: e.durationMs,
        }));
      }
      case 'new_users': {
        const { rows, total } = await this.page('signup', range, page);
        const users = await this.users(rows.map((e) => e.userId!));
        return { columns: USER_COLUMNS, rows: rows.map((e) => ({ ...this.userRow(users.get(e.userId!) ?? null, e.userId!), date: iso(e.occurredAt) })), total };
      }
      case 'total_users':
      case 'active_now': {
        const { User } = this.db.models;
        const where = kpi === 'total_users' ? this.usersAt(range) : { role: 'user', deletedAt: null, lastSeenAt: { [Op.gte]: new Date(this.clock.now().getTime() - ACTIVE_NOW_MS) } };
        const [total, users] = await Promise.all([User.count({ where }), User.findAll({ where, order: [['id', 'DESC']], limit: page.limit, offset: page.offset })]);
        return { columns: USER_COLUMNS, rows: users.map((u) => this.userRow(u, u.id)), total };
      }
      case 'deleted_users':
      case 'unsubscribed_users': {
        const kind: EventKind = kpi === 'deleted_users' ? 'deletion' : 'unsubscription';
        const { rows, total } = await this.page(kind, range, page);
        return { columns: ['date', 'user_id', 'event'], rows: rows.map((e) => ({ date: iso(e.occurredAt), user_id: e.userId, event: kind, by: e.method })), total };
      }
      case 'refunds_eur':
        return this.eventRows('refund', range, page, {}, ['date', 'user', 'label', 'method', 'kind', 'amount_eur'], (e, user) => ({
          date: iso(e.occurredAt),
          user,
          user_id: e.userId,
          label: e.label,
          method: e.method,
          kind: e.category,
          amount_eur: euros(e.amountCents),
          credits: parseStoredObject<{ credits_reversed: number }>(e.meta).credits_reversed ?? null,
        }));
      case 'failed_payments':
        return this.eventRows('failed_payment', range, page, {}, ['date', 'user', 'label', 'method', 'kind', 'amount_eur'], (e, user) => ({
          date: iso(e.occurredAt),
          user,
          user_id: e.userId,
          label: e.label,
          method: e.method,
          kind: e.category,
          amount_eur: e.amountCents === null ? null : euros(e.amountCents),
        }));
    }
  }

  /** Accounts (not admins) that existed at the end of the range: created before it, not deleted before it. */
  private usersAt(range: StatsRange): WhereOptions {
    if (range.range === 'all') return { role: 'user', deletedAt: null };
    return { role: 'user', createdAt: { [Op.lt]: range.end }, [Op.or]: [{ deletedAt: null }, { deletedAt: { [Op.gte]: range.end } }] };
  }

  private async page(kind: EventKind, range: StatsRange, page: Page, extra: WhereOptions = {}) {
    const { AppEvent } = this.db.models;
    const where = { kind, ...within(range), ...extra };
    const [total, rows] = await Promise.all([AppEvent.count({ where }), AppEvent.findAll({ where, order: [['occurredAt', 'DESC'], ['id', 'DESC']], limit: page.limit, offset: page.offset })]);
    return { rows, total };
  }

  private async eventRows(kind: EventKind, range: StatsRange, page: Page, extra: WhereOptions, columns: string[], shape: (e: AppEvent, user: string | null) => Record<string, unknown>) {
    const { rows, total } = await this.page(kind, range, page, extra);
    const labels = await userLabels(this.db, rows.map((e) => e.userId ?? NaN));
    return { columns, rows: rows.map((e) => shape(e, e.userId === null ? null : (labels.get(e.userId) ?? `#${e.userId}`))), total };
  }

  private async users(ids: number[]): Promise<Map<number, User>> {
    const rows = await this.db.models.User.findAll({ where: { id: [...new Set(ids)] } });
    return new Map(rows.map((u) => [u.id, u]));
  }

  private userRow(user: User | null, id: number) {
    if (!user) return { date: null, user_id: id, email: null, username: null, plan: null, credits: null, last_seen: null };
    return {
      date: iso(user.createdAt),
      user_id: user.id,
      email: user.email ?? user.deletedEmail,
      username: user.username,
      plan: effectivePlan(user, this.clock.now()),
      credits: user.credits,
      last_seen: iso(user.lastSeenAt),
      deleted: user.deletedAt !== null,
    };
  }
}

const USER_COLUMNS = ['date', 'email', 'username', 'plan', 'credits', 'last_seen'];
