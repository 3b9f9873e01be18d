/**
 * The breakdown charts (docs/admin.md "Breakdowns"), drawn with Observable Plot at the box's width.
 * Each kind is one small figure: bars for categories, lines for days, a table where a chart adds
 * nothing (DAU/WAU/MAU, top customers).
 */
import * as Plot from '@observablehq/plot';
import { formatIntegerFr } from '@bt/core/format';
import type { BreakdownItem, BreakdownKind } from '../../api/admin.js';
import { usePlot } from '../results/usePlot.js';
import { formatCount, formatEur } from './format.js';
import { MSG } from './messages.js';
import { Empty, TableBox } from './ui.js';

const INK = '#cbd5e1';
const BAR = '#3b82f6';
const IN = '#22c55e';
const OUT = '#ef4444';

export const CHART_TITLES: Record<BreakdownKind, string> = {
  sales_by_method: 'Ventes par moyen de paiement (€)',
  credits_by_method: 'Crédits entrés par moyen',
  revenue_by_day: 'Chiffre d’affaires par jour (€)',
  revenue_by_hour: 'Chiffre d’affaires par heure (UTC, €)',
  backtests_by_strategy: 'Backtests par stratégie',
  backtests_by_symbol: 'Backtests par symbole',
  backtests_by_timeframe: 'Backtests par unité de temps',
  heatmap: 'Backtests par jour et heure',
  backtest_duration: 'Durée des backtests',
  credits_flow: 'Flux de crédits par jour',
  active_users_daily: 'Utilisateurs actifs par jour',
  dau_wau_mau: 'DAU / WAU / MAU',
  top_customers: 'Meilleurs clients',
  failed_payments_by_kind: 'Paiements échoués par type',
};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : String(v ?? ''));
const base = (width: number, height = 220) => ({ width, height, marginLeft: 56, marginBottom: 40, style: { background: 'transparent', color: INK, fontSize: '11px' } });
const dayDate = (d: unknown) => new Date(`${str(d)}T00:00:00Z`);
const frNumber = (d: number) => formatIntegerFr(d);
const DAY_TICK = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** Day axes in French (`26 nov.`), not Plot's English month names. */
const frDay = (d: Date) => DAY_TICK.format(d);

function bars(items: BreakdownItem[], key: string, value: string, width: number, money = false) {
  const data = items.map((d) => ({ key: str(d[key]), value: num(d[value]) }));
  return Plot.plot({
    ...base(width, Math.max(160, 26 * data.length + 40)),
    marginLeft: Math.min(180, 12 + 7 * Math.max(4, ...data.map((d) => d.key.length))),
    x: { label: null, grid: true, tickFormat: frNumber },
    y: { label: null, domain: data.map((d) => d.key) },
    marks: [Plot.barX(data, { y: 'key', x: 'value', fill: BAR, title: (d: { key: string; value: number }) => `${d.key} : ${money ? formatEur(d.value) : formatCount(d.value)}` }), Plot.ruleX([0])],
  });
}

function days(items: BreakdownItem[], x: string, y: string, width: number, money = false) {
  const data = items.map((d) => ({ x: dayDate(d[x]), y: num(d[y]) }));
  return Plot.plot({
    ...base(width),
    x: { type: 'utc', label: null, tickFormat: frDay },
    y: { label: null, grid: true, tickFormat: frNumber },
    marks: [Plot.lineY(data, { x: 'x', y: 'y', stroke: BAR }), Plot.dot(data, { x: 'x', y: 'y', fill: BAR, r: 2, title: (d: { x: Date; y: number }) => `${d.x.toISOString().slice(0, 10)} : ${money ? formatEur(d.y) : formatCount(d.y)}` }), Plot.ruleY([0])],
  });
}

function hours(items: BreakdownItem[], width: number) {
  const data = items.map((d) => ({ hour: num(d.hour), total: num(d.total_eur) }));
  return Plot.plot({
    ...base(width),
    x: { label: 'Heure (UTC)', domain: Array.from({ length: 24 }, (_, h) => h) },
    y: { label: null, grid: true, tickFormat: frNumber },
    marks: [Plot.barY(data, { x: 'hour', y: 'total', fill: BAR, title: (d: { hour: number; total: number }) => `${d.hour} h : ${formatEur(d.total)}` }), Plot.ruleY([0])],
  });
}

function flow(items: BreakdownItem[], width: number) {
  const data = items.flatMap((d) => [
    { day: dayDate(d.day), value: num(d.in), side: 'entrés' },
    { day: dayDate(d.day), value: -Math.abs(num(d.out)), side: 'sortis' },
  ]);
  return Plot.plot({
    ...base(width),
    x: { type: 'utc', label: null, tickFormat: frDay },
    y: { label: null, grid: true, tickFormat: frNumber },
    color: { domain: ['entrés', 'sortis'], range: [IN, OUT], legend: true },
    marks: [Plot.rectY(data, { x: 'day', y: 'value', fill: 'side', interval: 'day' }), Plot.ruleY([0])],
  });
}

function draw(kind: BreakdownKind, items: BreakdownItem[], width: number): Element {
  switch (kind) {
    case 'sales_by_method':
      return bars(items, 'method', 'total_eur', width, true);
    case 'credits_by_method':
      return bars(items.map((d) => ({ ...d, key: `${str(d.method)} (${str(d.source)})` })), 'key', 'credits', width);
    case 'revenue_by_day':
      return days(items, 'x', 'y', width, true);
    case 'active_users_daily':
      return days(items, 'x', 'y', width);
    case 'revenue_by_hour':
      return hours(items, width);
    case 'backtest_duration':
      return bars(items, 'bucket', 'count', width);
    case 'credits_flow':
      return flow(items, width);
    case 'failed_payments_by_kind':
      return bars(items, 'kind', 'count', width);
    default:
      return bars(items, 'key', 'count', width);
  }
}

function PlotChart({ kind, items }: { kind: BreakdownKind; items: BreakdownItem[] }) {
  const host = usePlot((width) => draw(kind, items, width), [kind, items]);
  return <div className="chart admin-chart" ref={host} />;
}

/** Lists where the numbers are the point. */
function TableChart({ kind, items }: { kind: BreakdownKind; items: BreakdownItem[] }) {
  if (kind === 'dau_wau_mau')
    return (
      <div className="admin-kpis admin-kpis-small">
        {items.map((d) => (
          <div className="admin-kpi" key={str(d.metric)}>
            <span className="label">{str(d.metric)}</span>
            <strong className="admin-kpi-value">{formatCount(d.count)}</strong>
          </div>
        ))}
      </div>
    );
  return (
    <TableBox>
      <table className="sheet-table admin-table">
        <thead>
          <tr>
            <th>Client</th>
            <th>Commandes</th>
            <th>Ventes</th>
            <th>Crédits</th>
          </tr>
        </thead>
        <tbody>
          {items.map((d, i) => (
            <tr key={i}>
              <td>{str(d.user)}</td>
              <td>{formatCount(d.orders)}</td>
              <td>{formatEur(d.sales_eur)}</td>
              <td>{formatCount(d.credits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

/** Nothing to draw when every value is zero: the empty state says so. */
export function hasValues(kind: BreakdownKind, items: BreakdownItem[]): boolean {
  if (items.length === 0) return false;
  if (kind === 'dau_wau_mau' || kind === 'top_customers') return true;
  return items.some((d) => ['y', 'count', 'total_eur', 'credits', 'in', 'out'].some((k) => num(d[k]) !== 0));
}

export function BreakdownChart({ kind, items }: { kind: BreakdownKind; items: BreakdownItem[] }) {
  return (
    <figure className="admin-figure" data-testid={`chart-${kind}`}>
      <figcaption>{CHART_TITLES[kind]}</figcaption>
      {!hasValues(kind, items) ? <Empty text={MSG.empty} /> : kind === 'dau_wau_mau' || kind === 'top_customers' ? <TableChart kind={kind} items={items} /> : <PlotChart kind={kind} items={items} />}
    </figure>
  );
}
