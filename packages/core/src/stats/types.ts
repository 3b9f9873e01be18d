import type { SessionName } from '../simulate/types.js';
import type { Interval } from './wilson.js';

/**
 * Figures judged at one target (TP1 or TP2) against the original stop. Percentages are
 * fractions 0..1; R figures are in multiples of the trade's risk. Trades without a verdict at
 * this target (still open at the end of the data) count in `open` and nowhere else.
 */
export interface TargetFigures {
  /** Trades with a verdict at this target: wins + losses. */
  readonly resolved: number;
  readonly wins: number;
  readonly losses: number;
  readonly open: number;
  /** wins / resolved; null when nothing is resolved. */
  readonly winrate: number | null;
  /** Wilson 95 % interval of the win rate; null when nothing is resolved. */
  readonly winrateCi95: Interval | null;
  /** Mean R per resolved trade; null when nothing is resolved. */
  readonly expectancyR: number | null;
  /** Sum of R over resolved trades. */
  readonly totalR: number;
  /** Gross winning R / gross losing R; null when there is no losing R (undefined ratio). */
  readonly profitFactor: number | null;
  /** Largest fall of cumulative R from a previous peak (the curve starts at 0), in entry order; >= 0. */
  readonly maxDrawdownR: number;
  /** Most consecutive losses in entry order; open trades neither extend nor break a streak. */
  readonly longestLosingStreak: number;
}

/** Counts and figures of one group of trades (all trades, a session, an hour, a weekday). */
export interface GroupStatistics {
  readonly trades: number;
  /** Trades with a TP1 verdict (trades - open). */
  readonly resolved: number;
  readonly tp1Wins: number;
  readonly tp2Wins: number;
  /** Trades stopped out before TP1 (outcome `sl`). */
  readonly sl: number;
  /** Trades with neither SL nor TP1 by the end of data (outcome `open`). */
  readonly open: number;
  /** Trades whose SL and a TP fell inside one candle. */
  readonly ambiguous: number;
  /** sl / resolved; null when nothing is resolved. */
  readonly slRate: number | null;
  readonly tp1: TargetFigures;
  readonly tp2: TargetFigures;
}

export interface GlobalStatistics extends GroupStatistics {
  /** Trades that reached TP1 and then the stop before TP2. */
  readonly tp1ThenSl: number;
  /** Entry times (ms UTC) of the first and last trade; null without trades. */
  readonly firstTradeTime: number | null;
  readonly lastTradeTime: number | null;
}

export interface SessionStatistics extends GroupStatistics {
  readonly session: SessionName;
  /** "00-07": the session's UTC hours. */
  readonly hoursUtc: string;
}

export interface HourStatistics extends GroupStatistics {
  /** UTC entry hour 0..23. */
  readonly hour: number;
}

export interface WeekdayStatistics extends GroupStatistics {
  /** 0 = Monday .. 6 = Sunday. */
  readonly weekday: number;
  /** Lun..Dim. */
  readonly label: string;
}

/** One golden hour in the API's JSON shape (docs/product.md §2.3), plus its evidence. */
export interface GoldenHour {
  readonly hour: number;
  /** TP1 and TP2 win rates, fractions 0..1 (TP2 null when no TP2 verdict in that hour). */
  readonly TP1: number;
  readonly TP2: number | null;
  /** Resolved trades (TP1 verdicts) in that hour. */
  readonly trades: number;
  readonly TP1_ci95: Interval;
  readonly TP2_ci95: Interval | null;
}

/** `golden_hours` of the backtest result (docs/product.md §2.3), extended additively with intervals and the threshold. */
export interface GoldenHours {
  readonly winrate_global: {
    readonly TP1: number | null;
    readonly TP2: number | null;
    readonly TP1_ci95: Interval | null;
    readonly TP2_ci95: Interval | null;
  };
  /**
   * Eligible hours whose TP1 win rate beats the global one, ranked by the lower bound of their
   * Wilson 95 % interval; at most 3 (docs/report.md "Golden hours"). Empty when none beats it.
   */
  readonly golden_hours: readonly GoldenHour[];
  /** Resolved trades an hour needs to be eligible: max(3, ceil(5 % of resolved trades)). */
  readonly min_trades: number;
  /** Hours with at least min_trades resolved trades. */
  readonly eligible_hours: number;
  /** Eligible hours above the global TP1 win rate (golden_hours keeps the best 3 of them). */
  readonly above_global: number;
}

/** Same-candle SL/TP ambiguity: how many trades, and the figures once lower-timeframe candles resolved them. */
export interface AmbiguityStatistics {
  /** Trades flagged `ambiguous` (counted as SL by the conservative rule). */
  readonly ambiguous: number;
  /** Ambiguous trades that carry a resolved verdict at TP1 or TP2. */
  readonly resolvedByLowerTimeframe: number;
  /** Global figures with resolved verdicts in place of conservative ones; null when no trade carries one. */
  readonly resolved: { readonly tp1: TargetFigures; readonly tp2: TargetFigures } | null;
}

export interface BacktestStatistics {
  readonly global: GlobalStatistics;
  /** Five fixed UTC sessions, in SESSION_BUCKETS order. */
  readonly sessions: readonly SessionStatistics[];
  /** Hours 0..23, every hour present. */
  readonly byHour: readonly HourStatistics[];
  /** Monday..Sunday, every day present. */
  readonly byWeekday: readonly WeekdayStatistics[];
  readonly goldenHours: GoldenHours;
  readonly ambiguity: AmbiguityStatistics;
}

export interface StatisticsOptions {
  /** Smallest number of resolved trades a golden hour needs, whatever the run's size (default 3). */
  readonly goldenMinTrades?: number;
  /** Share of the run's resolved trades a golden hour needs (default 0.05). */
  readonly goldenMinShare?: number;
}
