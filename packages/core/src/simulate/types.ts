/**
 * The trade record every later stage reads (statistics, report, CLI, server).
 * Times are ms since epoch UTC; prices are in the instrument's price units.
 */
export type Side = 'buy' | 'sell';

/** How one target was judged against the original stop. `open`: neither reached by the end. */
export type TargetResult = 'win' | 'loss' | 'open';

/**
 * Overall outcome: `tp2` when TP2 was reached before SL; `tp1` when TP1 was reached before SL
 * but not TP2; `sl` when SL came first; `open` when neither SL nor TP1 came by the end of data.
 */
export type Outcome = 'tp2' | 'tp1' | 'sl' | 'open';

export type SessionName = 'Asie' | 'Londres' | 'Londres/New York' | 'New York' | 'Hors session';

export interface Trade {
  /** 1-based, in entry order. */
  readonly id: number;
  readonly side: Side;
  /** When the zone or signal became known (its confirmed_at). */
  readonly signalTime: number;
  /** Opening time of the candle in which the order filled. */
  readonly entryTime: number;
  readonly entryIndex: number;
  /** Resting price (pullback families) or the entry open (signal families): SL/TP are placed from it. */
  readonly orderPrice: number;
  /** Actual fill: the order price, or a better open that gapped through it. */
  readonly entryPrice: number;
  readonly sl: number;
  readonly tp1: number;
  readonly tp2: number;
  /** Distance entry-order-to-stop in pips (the R unit). */
  readonly riskPips: number;
  readonly tp1Result: TargetResult;
  readonly tp2Result: TargetResult;
  readonly outcome: Outcome;
  /** Candle opening times at which TP1, TP2, SL were reached (null when not reached). */
  readonly tp1Time: number | null;
  readonly tp2Time: number | null;
  readonly slTime: number | null;
  /** Max favourable / adverse excursion in pips while the trade was live. */
  readonly mfePips: number;
  readonly maePips: number;
  /** R multiple judged at TP1 and at TP2 (0 while open). */
  readonly rTp1: number;
  readonly rTp2: number;
  /** True when SL and a TP fell inside the same candle (counted as SL by the conservative rule). */
  readonly ambiguous: boolean;
  /** With lower-timeframe candles: what the smaller candles say came first; null when unresolved. */
  readonly resolvedTp1Result: TargetResult | null;
  readonly resolvedTp2Result: TargetResult | null;
  /** Entry hour (0..23), weekday (0 = Monday .. 6 = Sunday) and session, all in UTC. */
  readonly hour: number;
  readonly weekday: number;
  readonly session: SessionName;
  /** Trading costs (docs/engine.md §13), 0 without: the spread of the entry candle, in pips. */
  readonly spreadPips: number;
  /** Commission and slippage at entry, in pips: charged to every closed target (`rTp1`, `rTp2` are net of it). */
  readonly costPips: number;
  /** Slippage at the stop, in pips: charged to a target lost at the stop. */
  readonly stopCostPips: number;
}
