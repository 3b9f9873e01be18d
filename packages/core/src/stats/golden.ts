import type { GlobalStatistics, GoldenHour, GoldenHours, HourStatistics } from './types.js';

/**
 * Resolved trades an hour needs to be eligible: max(minTrades, ceil(minShare x resolved)).
 * The epsilon keeps 5 % of 60 at 3 (0.05 * 60 is 3.0000000000000004 in binary floating point).
 */
export function goldenMinTrades(resolvedTrades: number, minTrades = 3, minShare = 0.05): number {
  return Math.max(minTrades, Math.ceil(minShare * resolvedTrades - 1e-9));
}

/**
 * Golden hours: the hours with at least `min_trades` resolved trades, best first. Ranking:
 * TP1 win rate (higher first); on a tie, more resolved trades first (the same rate on more
 * evidence); then TP2 win rate (higher first, none last); then the earlier hour.
 */
export function rankGoldenHours(
  global: GlobalStatistics,
  byHour: readonly HourStatistics[],
  minTrades = 3,
  minShare = 0.05,
): GoldenHours {
  const min = goldenMinTrades(global.resolved, minTrades, minShare);
  const eligible: GoldenHour[] = [];
  for (const h of byHour) {
    if (h.resolved < min || h.tp1.winrate === null || h.tp1.winrateCi95 === null) continue;
    eligible.push({
      hour: h.hour,
      TP1: h.tp1.winrate,
      TP2: h.tp2.winrate,
      trades: h.resolved,
      TP1_ci95: h.tp1.winrateCi95,
      TP2_ci95: h.tp2.winrateCi95,
    });
  }
  eligible.sort((a, b) => b.TP1 - a.TP1 || b.trades - a.trades || (b.TP2 ?? -1) - (a.TP2 ?? -1) || a.hour - b.hour);
  return {
    winrate_global: {
      TP1: global.tp1.winrate,
      TP2: global.tp2.winrate,
      TP1_ci95: global.tp1.winrateCi95,
      TP2_ci95: global.tp2.winrateCi95,
    },
    golden_hours: eligible,
    min_trades: min,
  };
}
