// `bt admin metrics overview|breakdown|reset|rebuild`: the statistics of the event log.
import type { AnswerShape } from '../../admin/answer-shape.js';
import { quoted, UsageError } from '../../errors.js';
import { print, renderTable, styles } from '../../output.js';
import { cell, clientOf, confirmed, printAnswer, wholeNumber, type AdminFlags } from './shared.js';
import type { AdminConfirmFlags } from './users.js';

export interface AdminRangeFlags extends AdminFlags {
  range?: string;
  start?: string;
  end?: string;
  limit?: string;
}

/** The breakdowns the server computes (docs/admin.md "Breakdowns"). */
export const BREAKDOWN_KINDS = [
  'sales_by_method', 'credits_by_method', 'revenue_by_day', 'revenue_by_hour', 'backtests_by_strategy', 'backtests_by_symbol',
  'backtests_by_timeframe', 'heatmap', 'backtest_duration', 'credits_flow', 'active_users_daily', 'dau_wau_mau', 'top_customers',
  'failed_payments_by_kind',
] as const;

const RANGES = ['day', 'week', 'month', 'all', 'custom'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function checkDay(flag: string, text: string): string {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!DAY.test(text) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a UTC day YYYY-MM-DD)`);
  return text;
}

/** `--range` (day, week, month, all; custom with --start and --end, which alone imply it). */
export function rangeQuery(flags: AdminRangeFlags): Record<string, string> {
  const range = (flags.range ?? (flags.start || flags.end ? 'custom' : 'month')).toLowerCase();
  if (!RANGES.includes(range)) throw new UsageError(`invalid --range: ${quoted(flags.range)} (expected one of ${RANGES.join(', ')})`);
  if (range !== 'custom') {
    if (flags.start || flags.end) throw new UsageError('--start and --end go with --range custom');
    return { range };
  }
  if (!flags.start || !flags.end) throw new UsageError('--range custom needs --start and --end (YYYY-MM-DD, UTC days, both included)');
  const start = checkDay('--start', flags.start);
  const end = checkDay('--end', flags.end);
  if (end < start) throw new UsageError(`invalid --end: ${quoted(end)} (expected a day on or after --start ${start})`);
  return { range, start, end };
}

/**
 * The overview's rows, named by the server's fields like every admin table. The sales are gross
 * (the spec's field); refunds and net sales follow them (docs/admin.md "Overview"). A server from
 * before refunds were counted leaves those two out: their rows show `-` rather than the command failing.
 */
const KPIS = ['total_sales_eur', 'refunds_eur', 'net_sales_eur', 'total_credits_bought', 'credits_offered', 'backtests_count', 'total_users', 'new_users', 'active_now', 'deleted_users', 'unsubscribed_users', 'failed_payments'];
const LATER_KPIS = new Set(['refunds_eur', 'net_sales_eur']);
const RANGE_SHAPE = { range: 'string', start: 'string?', end: 'string' } as const;
const OVERVIEW_SHAPE: AnswerShape = { ...RANGE_SHAPE, ...Object.fromEntries(KPIS.map((k) => [k, LATER_KPIS.has(k) ? 'number?' : 'number'])) };

export async function overviewCommand(flags: AdminRangeFlags): Promise<void> {
  const answer = await clientOf(flags).json<Record<string, unknown>>('GET', '/metrics/overview', { query: rangeQuery(flags), shape: OVERVIEW_SHAPE });
  if (flags.json) return printAnswer('metrics overview', answer);
  const s = styles();
  print(s.bold(`overview · ${answer.range} · ${answer.start ?? 'beginning'} → ${answer.end} (UTC)`));
  print(renderTable(['kpi', 'value'], KPIS.map((k) => [k, cell(answer[k])]), { header: s.dim, align: ['left', 'right'] }));
}

/**
 * Breakdowns shown with set columns (the others show their first item's fields): the sales per
 * method, gross, refunded and net (docs/admin.md "Breakdowns"), `-` where an older server sends no
 * refunds, instead of columns that follow whichever method comes first.
 */
const BREAKDOWN_COLUMNS: Partial<Record<string, string[]>> = { sales_by_method: ['method', 'count', 'total_eur', 'refunds_eur', 'net_eur'] };

export async function breakdownCommand(kind: string, flags: AdminRangeFlags): Promise<void> {
  if (!(BREAKDOWN_KINDS as readonly string[]).includes(kind)) throw new UsageError(`invalid <kind>: ${quoted(kind)} (expected one of ${BREAKDOWN_KINDS.join(', ')})`);
  const query: Record<string, string | number> = { kind, ...rangeQuery(flags) };
  if (flags.limit !== undefined) query.limit = wholeNumber('--limit', flags.limit, 1, 100);
  const answer = await clientOf(flags).json<{ items: Record<string, unknown>[]; range: string; start: string | null; end: string }>('GET', '/metrics/breakdown', { query, shape: { ...RANGE_SHAPE, items: 'array' } });
  if (flags.json) return printAnswer('metrics breakdown', answer);
  const s = styles();
  print(s.bold(`${kind} · ${answer.range} · ${answer.start ?? 'beginning'} → ${answer.end} (UTC)`));
  if (answer.items.length === 0) return print(s.dim('no data'));
  if (kind === 'heatmap') {
    const hours = Array.from({ length: 24 }, (_, h) => String(h));
    print(renderTable(['', ...hours], answer.items.map((d) => [String(d.label), ...(d.hours as number[]).map(String)]), { header: s.dim }));
    return;
  }
  const columns = BREAKDOWN_COLUMNS[kind] ?? Object.keys(answer.items[0]);
  print(renderTable(columns, answer.items.map((item) => columns.map((c) => cell(item[c]))), { header: s.dim }));
}

export async function metricsResetCommand(flags: AdminConfirmFlags): Promise<void> {
  confirmed(flags, 'resetting the statistics (the event log)');
  const answer = await clientOf(flags).json<{ deleted: number }>('POST', '/metrics/reset', { json: {}, shape: { deleted: 'number' } });
  if (flags.json) return printAnswer('metrics reset', answer);
  print(`statistics reset: ${answer.deleted} events deleted`);
}

export async function metricsRebuildCommand(flags: AdminFlags): Promise<void> {
  const answer = await clientOf(flags).json<{ added: number; total: number }>('POST', '/metrics/rebuild_from_users', { json: {}, shape: { added: 'number', total: 'number' } });
  if (flags.json) return printAnswer('metrics rebuild', answer);
  print(`statistics rebuilt from the accounts, the credit ledger and the backtests: ${answer.added} events added, ${answer.total} in all`);
}
