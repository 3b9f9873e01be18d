/**
 * Chart series of the results (win rate by hour, session and weekday, each with its Wilson 95 %
 * interval) read from the statistics the backtest answer carries (core's BacktestStatistics), with
 * the golden hours marked. Win rates become percentages here; the intervals come from core.
 */
import type { GoldenHourEntry } from './golden.js';

export interface ChartPoint {
  /** Order on the axis. */
  order: number;
  label: string;
  /** TP1 win rate in percent, null when nothing is resolved. */
  winrate: number | null;
  low: number | null;
  high: number | null;
  resolved: number;
  golden: boolean;
  /** Fewer resolved trades than golden hours need: drawn faded (docs/report.md "Golden hours"). */
  faded: boolean;
}

export interface ChartSeries {
  hours: ChartPoint[];
  sessions: ChartPoint[];
  weekdays: ChartPoint[];
  /** The run's TP1 win rate in percent (the line golden hours must beat), null when unknown. */
  global: number | null;
  /** Resolved trades an hour needs to be eligible, when known. */
  minTrades: number | null;
}

type Group = Record<string, unknown>;

function figures(group: Group): { winrate: number | null; low: number | null; high: number | null; resolved: number } {
  const tp1 = (group.tp1 ?? {}) as Record<string, unknown>;
  const winrate = typeof tp1.winrate === 'number' ? tp1.winrate : null;
  const ci = Array.isArray(tp1.winrateCi95) ? (tp1.winrateCi95 as number[]) : null;
  const resolved = typeof tp1.resolved === 'number' ? tp1.resolved : typeof group.resolved === 'number' ? group.resolved : 0;
  return {
    winrate: winrate === null ? null : winrate * 100,
    low: ci ? ci[0] * 100 : null,
    high: ci ? ci[1] * 100 : null,
    resolved,
  };
}

function groups(value: unknown): Group[] {
  return Array.isArray(value) ? value.filter((g): g is Group => !!g && typeof g === 'object') : [];
}

const pad = (n: number) => String(n).padStart(2, '0');

export function chartSeries(statistics: unknown, goldenHours: readonly GoldenHourEntry[], minTrades: number | null = null): ChartSeries {
  const golden = new Set(goldenHours.map((g) => g.hour));
  const stats = statistics && typeof statistics === 'object' ? (statistics as Record<string, unknown>) : {};
  let hours = groups(stats.byHour).map((g) => {
    const hour = Number(g.hour);
    const f = figures(g);
    return { order: hour, label: `${pad(hour)}h`, ...f, golden: golden.has(hour), faded: minTrades !== null && f.resolved < minTrades };
  });
  if (hours.length === 0 && goldenHours.length) {
    // Without statistics, the golden hours alone still make a useful chart.
    hours = goldenHours.map((g) => {
      const ci = g.TP1_ci95 ?? null;
      return {
        order: g.hour,
        label: `${pad(g.hour)}h`,
        winrate: g.TP1 === null ? null : g.TP1 * 100,
        low: ci ? ci[0] * 100 : null,
        high: ci ? ci[1] * 100 : null,
        resolved: g.trades ?? 0,
        golden: true,
        faded: false,
      };
    });
  }
  hours.sort((a, b) => a.order - b.order);
  const sessions = groups(stats.sessions).map((g, i) => ({ order: i, label: String(g.session ?? `#${i + 1}`), ...figures(g), golden: false, faded: false }));
  const weekdays = groups(stats.byWeekday).map((g, i) => ({
    order: typeof g.weekday === 'number' ? g.weekday : i,
    label: String(g.label ?? i),
    ...figures(g),
    golden: false,
    faded: false,
  }));
  weekdays.sort((a, b) => a.order - b.order);
  const global = figures((stats.global ?? {}) as Group).winrate;
  return { hours, sessions, weekdays, global, minTrades };
}

export function hasChartData(series: ChartSeries): boolean {
  return [series.hours, series.sessions, series.weekdays].some((list) => list.some((p) => p.winrate !== null));
}
