import type { BacktestStatistics, GroupStatistics } from '@bt/core/stats';
import { parseStoredJson } from '../db/json.js';

/** One bucket's figures as the comparator reads them (fractions 0..1, null without a verdict). */
export interface BucketFigures {
  trades: number;
  resolved: number;
  winrate_tp1: number | null;
  winrate_tp2: number | null;
  sl_rate: number | null;
}

/**
 * What a run keeps in the database besides its workbook: the grouped figures of its statistics,
 * so the comparator and the listings never reopen workbooks.
 */
export interface RunSummary {
  global: BucketFigures;
  sessions: (BucketFigures & { name: string })[];
  hours: (BucketFigures & { hour: number })[];
  weekdays: (BucketFigures & { label: string })[];
}

function figures(group: GroupStatistics): BucketFigures {
  return { trades: group.trades, resolved: group.resolved, winrate_tp1: group.tp1.winrate, winrate_tp2: group.tp2.winrate, sl_rate: group.slRate };
}

export function runSummary(statistics: BacktestStatistics): RunSummary {
  return {
    global: figures(statistics.global),
    sessions: statistics.sessions.map((s) => ({ name: s.session, ...figures(s) })),
    hours: statistics.byHour.map((h) => ({ hour: h.hour, ...figures(h) })),
    weekdays: statistics.byWeekday.map((d) => ({ label: d.label, ...figures(d) })),
  };
}

export function parseSummary(text: string | null): RunSummary | null {
  return parseStoredJson<RunSummary | null>(text, null);
}

/**
 * A run's TP1 stop-loss rate from its stored columns, the same double as its summary's
 * `global.sl_rate` (losses / resolved): the win rate is wins / resolved, so wins come back exactly
 * as the nearest integer (test/results-listing.test.ts checks every count up to 3,000). Listings
 * read it without parsing each run's summary.
 */
export function slRateOf(resolved: number, winrateTp1: number | null): number | null {
  if (!(resolved > 0) || winrateTp1 === null) return null;
  return (resolved - Math.round(winrateTp1 * resolved)) / resolved;
}
