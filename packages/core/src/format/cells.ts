import { formatCompactFr, formatIntegerFr, formatNumberFr, formatPercentFr, formatPriceFr } from './french.js';
import { isPercentLabel, TRADE_HEADERS } from './labels.js';

/**
 * A percentage cell as the statistics modal shows it (docs/product.md §1.2, docs/product.md §2.2): a value between 0
 * and 1 is a fraction, multiplied by 100; any other number is already a percentage (older
 * workbooks stored 65.3). Always 2 decimals and '%'. Non-numbers are shown as they are.
 */
export function formatPercentCell(value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return value == null ? '' : String(value);
  const percent = n >= 0 && n <= 1 ? n * 100 : n;
  return `${percent.toFixed(2)}%`;
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?Z$/;

/**
 * Any cell of a result sheet, given its column header (tabular sheets) or its row label
 * (metric/value sheets): percentages by the rule above, other numbers without binary noise
 * (at most 6 decimals), booleans in French, empty for null, and times (the reader gives date
 * cells as ISO strings in UTC) as the workbook shows them, `yyyy-mm-dd hh:mm` (seconds only when
 * there are some): the headers already say the zone.
 */
export function formatCell(value: unknown, label: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') {
    const time = ISO_UTC.exec(value);
    if (time) return time[3] && time[3] !== '00' ? `${time[1]} ${time[2]}:${time[3]}` : `${time[1]} ${time[2]}`;
  }
  if (typeof value === 'number' && isPercentLabel(label)) return formatPercentCell(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  return String(value);
}

/** Trades sheet columns that hold prices (written with the instrument's decimals). */
const PRICE_LABELS: ReadonlySet<string> = new Set([TRADE_HEADERS.orderPrice, TRADE_HEADERS.entryPrice, TRADE_HEADERS.sl, TRADE_HEADERS.tp1, TRADE_HEADERS.tp2]);

/**
 * `formatCell` for French readers (the statistics modal, the pins): the same cells, with French
 * numbers: `57,14 %`, `1 004`, R and profit factors with 2 decimals, pips with 1, prices with the
 * instrument's decimals when its pip size is known. Times, words and booleans as `formatCell`.
 */
export function formatCellFr(value: unknown, label: unknown, options: { pipSize?: number | null } = {}): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return formatCell(value, label);
  const name = typeof label === 'string' ? label : '';
  if (isPercentLabel(label)) return formatPercentFr(value >= 0 && value <= 1 ? value : value / 100);
  if (PRICE_LABELS.has(name) && options.pipSize) return formatPriceFr(value, options.pipSize);
  if (/\(R\)|^R (TP1|TP2)$|^Profit factor/i.test(name)) return formatNumberFr(value, 2);
  if (/\(pips\)/i.test(name)) return formatNumberFr(value, 1);
  return Number.isInteger(value) ? formatIntegerFr(value) : formatCompactFr(value, 6);
}
