/**
 * What the pattern detectors see: the price columns of a candle series (a `Candles` fits).
 * Detectors never read past the candle at which a setup is confirmed.
 */
export interface PriceSeries {
  readonly length: number;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
}

/** The five patterns behind the official families (docs/architecture.md §2), and setups from a signal function. */
export type PatternKind = 'fvg' | 'order_block' | 'order_block_gap' | 'engulfing' | 'fvg_impulsive' | 'custom';

/** +1 bullish (a buy setup), -1 bearish (a sell setup). */
export type Direction = 1 | -1;

/**
 * Setups found by one detector, as parallel typed arrays (no object per setup), in ascending
 * `confirmedAt` order.
 *
 * - `top`/`bottom`: the zone (FVG gap, order-block candle range) or, for the engulfing signal,
 *   the pattern's range.
 * - `stop`: where an internal stop goes: the zone's far edge for zones, the pattern's extreme
 *   (lowest low / highest high of its candles) for signals.
 * - `formedAt`: the candle that carries the pattern (FVG middle candle, order-block candle,
 *   engulfing candle); `confirmedAt`: the candle at whose close the setup is known.
 */
export interface Setups {
  readonly kind: PatternKind;
  readonly count: number;
  readonly side: Int8Array;
  readonly top: Float64Array;
  readonly bottom: Float64Array;
  readonly stop: Float64Array;
  readonly formedAt: Int32Array;
  readonly confirmedAt: Int32Array;
}
