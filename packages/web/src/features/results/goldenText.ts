// Kept apart from golden.ts, which the backtest form's first load carries: the words of a golden
// hour are only needed by the result view.
import { formatIntegerFr, formatPercentFr, hourLabel } from '@bt/core/format';
import type { GoldenHourEntry } from './golden.js';

/** `14h · 81,25 % · 16 trades` for one golden hour (UTC). */
export function goldenHourText(g: GoldenHourEntry): string {
  return [hourLabel(g.hour), formatPercentFr(g.TP1), g.trades === undefined ? null : `${formatIntegerFr(g.trades)} trades`].filter(Boolean).join(' · ');
}
