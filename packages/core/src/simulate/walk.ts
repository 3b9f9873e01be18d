/**
 * The life of one trade over candles, in the direction-normalised space `dir * price` (so the
 * code reads as a buy): SL and TP1/TP2 share the original stop; the trade lives until SL or TP2.
 */
export interface WalkState {
  readonly dir: number;
  readonly entry: number;
  readonly sl: number;
  readonly tp1: number;
  readonly tp2: number;
  tp1Done: boolean;
  /** Target results: 1 win, -1 loss, 0 open. */
  r1: number;
  r2: number;
  tp1At: number;
  tp2At: number;
  slAt: number;
  /** Best favourable and worst adverse excursion from the fill, in price units (>= 0). */
  fav: number;
  adv: number;
  /** Candle where SL and a still-pending TP fell together (-1: none); the SL was counted. */
  ambiguousAt: number;
  closed: boolean;
}

export function newWalkState(dir: number, entry: number, sl: number, tp1: number, tp2: number): WalkState {
  return { dir, entry, sl, tp1, tp2, tp1Done: false, r1: 0, r2: 0, tp1At: -1, tp2At: -1, slAt: -1, fav: 0, adv: 0, ambiguousAt: -1, closed: false };
}

/**
 * Walks candles [from, to) of one price set (the run's candles, or lower-timeframe candles when
 * resolving an ambiguity). Rules (docs/architecture.md §2):
 *  - a candle reaching SL and a pending TP counts as SL (conservative) and is flagged;
 *  - with `restingFirst`, candle `from` is a resting order's fill candle: only SL can count
 *    there (its high may predate the fill), and its favourable side is not an excursion;
 *  - TP2 is judged against the original SL, after TP1 (TP1 and TP2 in one candle both win);
 *  - excursions stop at the exit: MAE is capped at the stop, MFE at TP2, and the favourable
 *    side of the SL candle is ignored.
 */
export function walk(s: WalkState, high: Float64Array, low: Float64Array, from: number, to: number, restingFirst: boolean): void {
  if (s.closed) return;
  const d = s.dir;
  const slD = d * s.sl;
  const t1 = d * s.tp1;
  const t2 = d * s.tp2;
  const e = d * s.entry;
  let tp1Done = s.tp1Done;
  let fav = s.fav;
  let adv = s.adv;
  let k = from;
  if (restingFirst && k < to) {
    const a = d > 0 ? low[k] : -high[k];
    if (a <= slD) {
      const f = d > 0 ? high[k] : -low[k];
      if (f >= t1) s.ambiguousAt = k;
      if (e - slD > adv) adv = e - slD;
      s.slAt = k;
      s.r1 = -1;
      s.r2 = -1;
      s.adv = adv;
      s.fav = fav;
      s.closed = true;
      return;
    }
    if (e - a > adv) adv = e - a;
    k++;
  }
  for (; k < to; k++) {
    const a = d > 0 ? low[k] : -high[k];
    const f = d > 0 ? high[k] : -low[k];
    if (a <= slD) {
      if (f >= (tp1Done ? t2 : t1)) s.ambiguousAt = k;
      if (e - slD > adv) adv = e - slD;
      s.slAt = k;
      if (!tp1Done) s.r1 = -1;
      s.r2 = -1;
      s.closed = true;
      break;
    }
    if (e - a > adv) adv = e - a;
    if (!tp1Done && f >= t1) {
      tp1Done = true;
      s.r1 = 1;
      s.tp1At = k;
    }
    if (tp1Done && f >= t2) {
      if (t2 - e > fav) fav = t2 - e;
      s.r2 = 1;
      s.tp2At = k;
      s.closed = true;
      break;
    }
    if (f - e > fav) fav = f - e;
  }
  s.tp1Done = tp1Done;
  s.fav = fav;
  s.adv = adv;
}
