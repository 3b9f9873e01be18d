import { NO_ELIGIBLE_HOUR, NO_GOLDEN_HOUR } from '../format/labels.js';
import type { GlobalStatistics, GoldenHour, GoldenHours, HourStatistics } from './types.js';

/** At most this many golden hours: the card stars them, the charts and the workbook mark them. */
export const GOLDEN_HOURS_MAX = 3;

/**
 * Resolved trades an hour needs to be eligible: max(minTrades, ceil(minShare x resolved)).
 * The epsilon keeps 5 % of 60 at 3 (0.05 * 60 is 3.0000000000000004 in binary floating point).
 */
export function goldenMinTrades(resolvedTrades: number, minTrades = 3, minShare = 0.05): number {
  return Math.max(minTrades, Math.ceil(minShare * resolvedTrades - 1e-9));
}

/**
 * Golden hours (docs/report.md, "Golden hours"): among the eligible hours (at least `min_trades`
 * resolved trades), those whose TP1 win rate is strictly above the run's global TP1 win rate,
 * ranked by the lower bound of their Wilson 95 % interval (evidence first: 5 wins of 5 ranks
 * below 18 of 20), then the higher rate, more resolved trades, the earlier hour; at most
 * GOLDEN_HOURS_MAX. None when no hour beats the global rate: weak hours are never starred.
 * Rates are compared as integers (wins x resolved), so equal rates never beat each other by
 * floating-point noise.
 */
export function rankGoldenHours(
  global: GlobalStatistics,
  byHour: readonly HourStatistics[],
  minTrades = 3,
  minShare = 0.05,
): GoldenHours {
  const min = goldenMinTrades(global.resolved, minTrades, minShare);
  const g = global.tp1;
  let eligible = 0;
  const beating: { hour: HourStatistics; lower: number }[] = [];
  for (const h of byHour) {
    if (h.resolved < min || h.tp1.winrate === null || h.tp1.winrateCi95 === null) continue;
    eligible++;
    if (g.resolved > 0 && h.tp1.wins * g.resolved > g.wins * h.tp1.resolved) beating.push({ hour: h, lower: h.tp1.winrateCi95[0] });
  }
  beating.sort((a, b) => b.lower - a.lower || b.hour.tp1.winrate! - a.hour.tp1.winrate! || b.hour.resolved - a.hour.resolved || a.hour.hour - b.hour.hour);
  const golden: GoldenHour[] = beating.slice(0, GOLDEN_HOURS_MAX).map(({ hour: h }) => ({
    hour: h.hour,
    TP1: h.tp1.winrate!,
    TP2: h.tp2.winrate,
    trades: h.resolved,
    TP1_ci95: h.tp1.winrateCi95!,
    TP2_ci95: h.tp2.winrateCi95,
  }));
  return {
    winrate_global: {
      TP1: global.tp1.winrate,
      TP2: global.tp2.winrate,
      TP1_ci95: global.tp1.winrateCi95,
      TP2_ci95: global.tp2.winrateCi95,
    },
    golden_hours: golden,
    min_trades: min,
    eligible_hours: eligible,
    above_global: beating.length,
  };
}

/** Rank (1..GOLDEN_HOURS_MAX) of each golden hour, by UTC hour: what the workbook and the charts mark. */
export function goldenRanks(goldenHours: Pick<GoldenHours, 'golden_hours'>): Map<number, number> {
  return new Map(goldenHours.golden_hours.map((h, i) => [h.hour, i + 1]));
}

/** The golden hours in words (UTC): `14h, 09h` (best first), or why there is none, in French. */
export function goldenHoursText(goldenHours: Pick<GoldenHours, 'golden_hours' | 'eligible_hours'>): string {
  if (goldenHours.golden_hours.length) return goldenHours.golden_hours.map((h) => `${String(h.hour).padStart(2, '0')}h`).join(', ');
  return goldenHours.eligible_hours ? NO_GOLDEN_HOUR : NO_ELIGIBLE_HOUR;
}
