import { WEEKDAY_LABELS } from '@bt/core/stats';
import { Op, col, fn, literal, type WhereOptions } from 'sequelize';
import { badRequest } from '../app/errors.js';
import type { Database } from '../db/database.js';
import type { EventKind } from '../db/models.js';
import { ADMIN_MSG } from '../admin/messages.js';
import { daysOf, within, type StatsRange } from './ranges.js';
import { userLabels } from './user-labels.js';
import { BREAKDOWN_KINDS, type BreakdownKind } from '@bt/core/catalogue';
export { BREAKDOWN_KINDS, type BreakdownKind };

/**
 * The breakdowns of the statistics tab (docs/admin.md, "Breakdowns"): each one GROUP BY over the
 * event log in the database, on the UTC calendar columns stored with every event, so SQLite and
 * MySQL run the same statements and no row is loaded to be counted here.
 */

/** The kinds that say a user was there that day (DAU, WAU, MAU, active users per day). */
export const ACTIVITY_KINDS: readonly EventKind[] = ['active', 'login', 'signup', 'backtest', 'purchase', 'credits_spent'];

/** Upper bounds (ms, exclusive) of the run-duration buckets; the last bucket is open. */
export const DURATION_BUCKETS: readonly { label: string; below: number | null }[] = [
  { label: '< 0,5 s', below: 500 },
  { label: '0,5–1 s', below: 1000 },
  { label: '1–2 s', below: 2000 },
  { label: '2–5 s', below: 5000 },
  { label: '5–10 s', below: 10_000 },
  { label: '10–30 s', below: 30_000 },
  { label: '≥ 30 s', below: null },
];

const euros = (cents: unknown) => Math.round(Number(cents ?? 0)) / 100;
const num = (value: unknown) => Number(value ?? 0);

type Row = Record<string, unknown>;

export class Breakdowns {
  constructor(private readonly db: Database) {}

  async compute(kind: string, range: StatsRange, options: { limit?: number } = {}): Promise<unknown[]> {
    switch (kind as BreakdownKind) {
      case 'sales_by_method': {
        // total_eur: the sales (gross); refunds_eur: refunds and disputes of the range, whatever the
        // day of their sale; net_eur the difference (docs/admin.md "Breakdowns").
        const [sales, refunds] = await Promise.all([
          this.grouped('purchase', range, 'method', [this.count(), this.sum('amount_cents', 'cents')]),
          this.grouped('refund', range, 'method', [this.sum('amount_cents', 'cents')]),
        ]);
        const refunded = new Map(refunds.map((r) => [String(r.method), num(r.cents)]));
        const methods = [...new Set([...sales.map((r) => String(r.method)), ...refunded.keys()])];
        return methods
          .map((method) => {
            const sale = sales.find((r) => String(r.method) === method);
            const cents = num(sale?.cents);
            const back = refunded.get(method) ?? 0;
            return { method, count: num(sale?.count), total_eur: euros(cents), refunds_eur: euros(back), net_eur: euros(cents - back) };
          })
          .sort((a, b) => b.total_eur - a.total_eur || String(a.method).localeCompare(String(b.method)));
      }
      case 'credits_by_method': {
        const rows = await this.query({ kind: ['purchase', 'credits_offered'], ...within(range) }, ['kind', 'method'], [this.count(), this.sum('credits', 'credits')]);
        return rows
          .map((r) => ({ method: r.method, source: r.kind === 'purchase' ? 'achat' : 'offert', count: num(r.count), credits: num(r.credits) }))
          .sort((a, b) => b.credits - a.credits || String(a.method).localeCompare(String(b.method)));
      }
      case 'revenue_by_day': {
        const rows = await this.grouped('purchase', range, 'day', [this.sum('amount_cents', 'cents')]);
        const byDay = new Map(rows.map((r) => [String(r.day), euros(r.cents)]));
        return (await this.days(range, byDay)).map((day) => ({ x: day, y: byDay.get(day) ?? 0 }));
      }
      case 'revenue_by_hour': {
        const rows = await this.grouped('purchase', range, 'hour', [this.sum('amount_cents', 'cents')]);
        const byHour = new Map(rows.map((r) => [num(r.hour), euros(r.cents)]));
        return Array.from({ length: 24 }, (_, hour) => ({ hour, total_eur: byHour.get(hour) ?? 0 }));
      }
      case 'backtests_by_strategy':
        return this.keyed('strategy', range);
      case 'backtests_by_symbol':
        return this.keyed('symbol', range);
      case 'backtests_by_timeframe':
        return this.keyed('timeframe', range);
      case 'heatmap': {
        const rows = await this.query({ kind: 'backtest', ...within(range) }, ['weekday', 'hour'], [this.count()]);
        const cells = WEEKDAY_LABELS.map((label) => ({ label, hours: new Array<number>(24).fill(0) }));
        for (const r of rows) cells[num(r.weekday)].hours[num(r.hour)] = num(r.count);
        return cells;
      }
      case 'backtest_duration': {
        // One CASE per bucket, evaluated by the database; the buckets' bounds are constants.
        const parts = DURATION_BUCKETS.map((b, i) => (b.below === null ? `ELSE ${i}` : `WHEN duration_ms < ${b.below} THEN ${i}`));
        const bucket = literal(`CASE ${parts.join(' ')} END`);
        const rows = (await this.db.models.AppEvent.findAll({
          attributes: [[bucket, 'bucket'], [fn('COUNT', col('id')), 'count']],
          where: { kind: 'backtest', durationMs: { [Op.ne]: null }, ...within(range) },
          group: [bucket as unknown as string],
          raw: true,
        })) as unknown as Row[];
        const counts = new Map(rows.map((r) => [num(r.bucket), num(r.count)]));
        return DURATION_BUCKETS.map((b, i) => ({ bucket: b.label, count: counts.get(i) ?? 0 }));
      }
      case 'credits_flow': {
        const rows = await this.query({ credits: { [Op.ne]: null }, ...within(range) }, ['day'], [
          [literal('SUM(CASE WHEN credits > 0 THEN credits ELSE 0 END)'), 'credits_in'],
          [literal('SUM(CASE WHEN credits < 0 THEN -credits ELSE 0 END)'), 'credits_out'],
        ]);
        const byDay = new Map(rows.map((r) => [String(r.day), { in: num(r.credits_in), out: num(r.credits_out) }]));
        return (await this.days(range, byDay)).map((day) => {
          const v = byDay.get(day) ?? { in: 0, out: 0 };
          return { day, in: v.in, out: v.out, net: v.in - v.out };
        });
      }
      case 'active_users_daily': {
        const rows = await this.query({ kind: [...ACTIVITY_KINDS], userId: { [Op.ne]: null }, ...within(range) }, ['day'], [[fn('COUNT', fn('DISTINCT', col('user_id'))), 'users']]);
        const byDay = new Map(rows.map((r) => [String(r.day), num(r.users)]));
        return (await this.days(range, byDay)).map((day) => ({ x: day, y: byDay.get(day) ?? 0 }));
      }
      case 'dau_wau_mau': {
        const out = [];
        for (const [metric, days] of [['DAU', 1], ['WAU', 7], ['MAU', 30]] as const) {
          const start = new Date(range.end.getTime() - days * 86_400_000);
          const count = await this.db.models.AppEvent.count({
            distinct: true,
            col: 'user_id',
            where: { kind: [...ACTIVITY_KINDS], userId: { [Op.ne]: null }, occurredAt: { [Op.gte]: start, [Op.lt]: range.end } },
          });
          out.push({ metric, count });
        }
        return out;
      }
      case 'top_customers': {
        const limit = options.limit ?? 10;
        const rows = (await this.db.models.AppEvent.findAll({
          attributes: ['userId', [fn('COUNT', col('id')), 'orders'], [fn('SUM', col('amount_cents')), 'cents'], [fn('SUM', col('credits')), 'credits']],
          where: { kind: 'purchase', userId: { [Op.ne]: null }, ...within(range) },
          group: ['user_id'],
          order: [[literal('cents'), 'DESC'], [literal('orders'), 'DESC'], ['userId', 'ASC']],
          limit,
          raw: true,
        })) as unknown as Row[];
        const labels = await userLabels(this.db, rows.map((r) => num(r.userId)));
        return rows.map((r) => ({ user: labels.get(num(r.userId)) ?? `#${r.userId}`, user_id: num(r.userId), orders: num(r.orders), sales_eur: euros(r.cents), credits: num(r.credits) }));
      }
      case 'failed_payments_by_kind':
        return (await this.grouped('failed_payment', range, 'category', [this.count(), this.sum('amount_cents', 'cents')]))
          .map((r) => ({ kind: r.category ?? 'inconnu', count: num(r.count), total_eur: euros(r.cents) }))
          .sort((a, b) => b.count - a.count || String(a.kind).localeCompare(String(b.kind)));
      default:
        throw badRequest(ADMIN_MSG.badKind(kind, BREAKDOWN_KINDS));
    }
  }

  private count(): [ReturnType<typeof fn>, string] {
    return [fn('COUNT', col('id')), 'count'];
  }

  private sum(column: string, alias: string): [ReturnType<typeof fn>, string] {
    return [fn('SUM', col(column)), alias];
  }

  private grouped(kind: EventKind, range: StatsRange, by: string, measures: [unknown, string][]): Promise<Row[]> {
    return this.query({ kind, ...within(range) }, [by], measures);
  }

  private async query(where: WhereOptions, by: string[], measures: [unknown, string][]): Promise<Row[]> {
    return (await this.db.models.AppEvent.findAll({
      attributes: [...by, ...measures] as never,
      where,
      group: by.map((name) => (name === 'userId' ? 'user_id' : name)),
      raw: true,
    })) as unknown as Row[];
  }

  /** Backtests per value of one column: key, count; most first. */
  private async keyed(column: 'strategy' | 'symbol' | 'timeframe', range: StatsRange) {
    const rows = await this.grouped('backtest', range, column, [this.count()]);
    return rows.map((r) => ({ key: r[column] ?? '', count: num(r.count) })).sort((a, b) => b.count - a.count || String(a.key).localeCompare(String(b.key)));
  }

  /** The days a series covers: the range's, or for `all` from the first to the last day with a value. */
  private async days(range: StatsRange, values: Map<string, unknown>): Promise<string[]> {
    if (range.firstDay) return daysOf(range.firstDay, range.lastDay);
    const keys = [...values.keys()].sort();
    return keys.length ? daysOf(keys[0], keys[keys.length - 1] > range.lastDay ? keys[keys.length - 1] : range.lastDay) : [];
  }
}
