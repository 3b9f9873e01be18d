// Kept apart from golden.ts, which the backtest form's first load carries: the words of a golden
// hour and the result view's counts are only needed by the result view. Counts are grouped the
// French way (docs/web.md, "Numbers and labels"): '(1 004)', never '(1004)'.
import { formatIntegerFr, formatPercentFr, hourLabel } from '@bt/core/format';
import type { GoldenHourEntry } from './golden.js';

/** `14h · 81,25 % · 16 trades` for one golden hour (UTC). */
export function goldenHourText(g: GoldenHourEntry): string {
  return [hourLabel(g.hour), formatPercentFr(g.TP1), g.trades === undefined ? null : `${formatIntegerFr(g.trades)} trades`].filter(Boolean).join(' · ');
}

/** The golden hours' label: `Golden hours (UTC, 1 000 trades résolus min.)`, or `(UTC)` without a minimum. */
export function goldenHoursLabel(minTrades: number | null): string {
  return `Golden hours (UTC${minTrades !== null ? `, ${formatIntegerFr(minTrades)} trades résolus min.` : ''})`;
}

/** The count beside the trades list's heading: `(1 004)`. */
export function tradesCountText(count: number): string {
  return `(${formatIntegerFr(count)})`;
}
