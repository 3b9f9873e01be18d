/**
 * The console's display rules: sizes in o, ko, Mo and Go (docs/product.md §3.2), money,
 * counts and instants in French, as the rest of the app writes them (@bt/core/format).
 */
import { formatCompactFr, formatDateTimeFr, formatIntegerFr, formatNumberFr } from '@bt/core/format';

const UNITS = ['o', 'ko', 'Mo', 'Go'] as const;

/**
 * A byte count: `512 o`, `1,5 ko`, `12,3 Mo`, `2,1 Go` (powers of 1024; one decimal from ko up,
 * none when it is zero). Missing or negative counts print as an em dash.
 */
export function formatSize(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${formatIntegerFr(value)}\u00a0o`;
  // 1023,96 ko would round to 1 024,0 ko: step up instead.
  if (Math.round(value * 10) / 10 >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${formatCompactFr(Math.round(value * 10) / 10, 1)}\u00a0${UNITS[unit]}`;
}

/** Euros: `1 234,50 €`. */
export function formatEur(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${formatNumberFr(value, 2)}\u00a0€` : '—';
}

export function formatCount(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatIntegerFr(value) : '—';
}

/** An ISO instant (UTC) as `01/03/2023 14:00`; other text as it is; nothing as an em dash. */
export function formatInstant(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return formatDateTimeFr(value);
  if (typeof value !== 'string' || value.trim() === '') return '—';
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return value;
  return /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? formatDateTimeFr(ms).slice(0, 10) : formatDateTimeFr(ms);
}

/** A signed credit change: `+3`, `-2`; a backtest line without a delta reads -2 (docs/product.md §3.3). */
export function formatDelta(delta: number | null | undefined, type?: string): string {
  const value = typeof delta === 'number' && Number.isFinite(delta) ? delta : type === 'backtest' ? -2 : null;
  if (value === null) return '—';
  return value > 0 ? `+${formatIntegerFr(value)}` : formatIntegerFr(value);
}

/** Any cell of a details table. */
export function formatCell(column: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (column === 'amount_eur' || column.endsWith('_eur')) return formatEur(value);
  if (column === 'date' || column === 'last_seen' || column.endsWith('_at')) return formatInstant(value);
  if (column === 'duration_ms' && typeof value === 'number') return `${formatNumberFr(value / 1000, 1)}\u00a0s`;
  if (typeof value === 'number') return formatCompactFr(value, 2);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
