/**
 * The conservative trade walk over the run's candles, fast. Candles are grouped in blocks of 16
 * and superblocks of 256 whose lowest low and highest high are known; a block that reaches
 * neither the stop nor the pending target is skipped whole, its extremes feeding the
 * excursions. Same rules and same results as `walk` (walk.ts states them; a test compares both
 * on random data).
 */
const SHIFT = 4;
const BLOCK = 1 << SHIFT;
const SUPER_SHIFT = 8;
const SUPER = 1 << SUPER_SHIFT;

/** Highs and lows with their block and superblock extremes. */
export interface PriceBlocks {
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly blockHigh: Float64Array;
  readonly blockLow: Float64Array;
  readonly superHigh: Float64Array;
  readonly superLow: Float64Array;
}

function extremes(high: Float64Array, low: Float64Array, shift: number): [Float64Array, Float64Array] {
  const n = high.length;
  const count = (n + (1 << shift) - 1) >> shift;
  const hi = new Float64Array(count);
  const lo = new Float64Array(count);
  for (let b = 0; b < count; b++) {
    let h = -Infinity;
    let l = Infinity;
    const end = Math.min(n, (b + 1) << shift);
    for (let k = b << shift; k < end; k++) {
      if (high[k] > h) h = high[k];
      if (low[k] < l) l = low[k];
    }
    hi[b] = h;
    lo[b] = l;
  }
  return [hi, lo];
}

// Candles are immutable once built: the blocks of a price series are computed once and shared by
// every strategy run on it.
const cache = new WeakMap<Float64Array, { low: Float64Array; blocks: PriceBlocks }>();

export function priceBlocks(high: Float64Array, low: Float64Array): PriceBlocks {
  const hit = cache.get(high);
  if (hit && hit.low === low) return hit.blocks;
  const [blockHigh, blockLow] = extremes(high, low, SHIFT);
  const [superHigh, superLow] = extremes(blockHigh, blockLow, SUPER_SHIFT - SHIFT);
  const blocks = { high, low, blockHigh, blockLow, superHigh, superLow };
  cache.set(high, { low, blocks });
  return blocks;
}

// Prices cross function boundaries through typed scratch, never as arguments or module `let`s:
// V8 boxes a double passed to a call it does not inline, and one stored in a module variable,
// which costs an allocation per trade. Slots: stop, target, passed high, passed low.
const io = new Float64Array(4);

/** First k in [from, n) with `low[k] <= io[0]` (stop) or `high[k] >= io[1]` (target), a buy; n when none. */
function firstHitBuy(p: PriceBlocks, from: number): number {
  const { high, low, blockHigh, blockLow, superHigh, superLow } = p;
  const stop = io[0];
  const target = io[1];
  const n = high.length;
  let maxH = -Infinity;
  let minL = Infinity;
  let k = from;
  while (k < n) {
    if ((k & (SUPER - 1)) === 0) {
      const s = k >> SUPER_SHIFT;
      if (superLow[s] > stop && superHigh[s] < target) {
        if (superHigh[s] > maxH) maxH = superHigh[s];
        if (superLow[s] < minL) minL = superLow[s];
        k += SUPER;
        continue;
      }
    }
    if ((k & (BLOCK - 1)) === 0) {
      const b = k >> SHIFT;
      if (blockLow[b] > stop && blockHigh[b] < target) {
        if (blockHigh[b] > maxH) maxH = blockHigh[b];
        if (blockLow[b] < minL) minL = blockLow[b];
        k += BLOCK;
        continue;
      }
    }
    const end = Math.min(n, ((k >> SHIFT) + 1) << SHIFT);
    for (; k < end; k++) {
      const l = low[k];
      const h = high[k];
      if (l <= stop || h >= target) {
        io[2] = maxH;
        io[3] = minL;
        return k;
      }
      if (h > maxH) maxH = h;
      if (l < minL) minL = l;
    }
  }
  io[2] = maxH;
  io[3] = minL;
  return n;
}

/** First k in [from, n) with `high[k] >= io[0]` (stop) or `low[k] <= io[1]` (target), a sell; n when none. */
function firstHitSell(p: PriceBlocks, from: number): number {
  const { high, low, blockHigh, blockLow, superHigh, superLow } = p;
  const stop = io[0];
  const target = io[1];
  const n = high.length;
  let maxH = -Infinity;
  let minL = Infinity;
  let k = from;
  while (k < n) {
    if ((k & (SUPER - 1)) === 0) {
      const s = k >> SUPER_SHIFT;
      if (superHigh[s] < stop && superLow[s] > target) {
        if (superHigh[s] > maxH) maxH = superHigh[s];
        if (superLow[s] < minL) minL = superLow[s];
        k += SUPER;
        continue;
      }
    }
    if ((k & (BLOCK - 1)) === 0) {
      const b = k >> SHIFT;
      if (blockHigh[b] < stop && blockLow[b] > target) {
        if (blockHigh[b] > maxH) maxH = blockHigh[b];
        if (blockLow[b] < minL) minL = blockLow[b];
        k += BLOCK;
        continue;
      }
    }
    const end = Math.min(n, ((k >> SHIFT) + 1) << SHIFT);
    for (; k < end; k++) {
      const l = low[k];
      const h = high[k];
      if (h >= stop || l <= target) {
        io[2] = maxH;
        io[3] = minL;
        return k;
      }
      if (h > maxH) maxH = h;
      if (l < minL) minL = l;
    }
  }
  io[2] = maxH;
  io[3] = minL;
  return n;
}

/** Inputs of `fastWalk`: fill, stop, TP1, TP2 (prices). */
export const walkIn = new Float64Array(4);
/** Outputs of `fastWalk`: favourable and adverse excursion from the fill, in price units. */
export const walkOutPrices = new Float64Array(2);
/** Outputs of `fastWalk`: TP1 verdict, TP2 verdict (1 win, -1 loss, 0 open), TP1, TP2, SL candle (-1: none), ambiguous (0/1). */
export const walkOutCandles = new Int32Array(6);

/**
 * One trade from candle j, `dir` +1 buy / -1 sell, levels in `walkIn`, results in `walkOut*`.
 * `resting`: candle j is a resting order's fill candle (only SL counts there, and its
 * favourable side is no excursion). Excursions are in price units from the fill.
 */
export function fastWalk(p: PriceBlocks, dir: number, j: number, resting: boolean): void {
  const { high, low } = p;
  const n = high.length;
  const buy = dir > 0;
  // Direction-normalised: a = adverse extreme (lower is worse), f = favourable extreme.
  const sl = walkIn[1];
  const e = dir * walkIn[0];
  const slD = dir * sl;
  const t1 = dir * walkIn[2];
  const t2 = dir * walkIn[3];
  const out = walkOutCandles;
  out[0] = 0;
  out[1] = 0;
  out[2] = -1;
  out[3] = -1;
  out[4] = -1;
  out[5] = 0;
  let fav = 0;
  let adv = 0;
  let k = j;
  if (resting) {
    const a = buy ? low[j] : -high[j];
    if (a <= slD) {
      out[5] = (buy ? high[j] : -low[j]) >= t1 ? 1 : 0;
      out[4] = j;
      out[0] = -1;
      out[1] = -1;
      walkOutPrices[0] = 0;
      walkOutPrices[1] = e - slD > 0 ? e - slD : 0;
      return;
    }
    if (e - a > adv) adv = e - a;
    k = j + 1;
  }
  // Until SL or TP1.
  io[0] = sl;
  io[1] = walkIn[2];
  let h = buy ? firstHitBuy(p, k) : firstHitSell(p, k);
  let passedF = buy ? io[2] : -io[3];
  let passedA = buy ? io[3] : -io[2];
  if (passedF - e > fav) fav = passedF - e;
  if (e - passedA > adv) adv = e - passedA;
  if (h < n) {
    let a = buy ? low[h] : -high[h];
    let f = buy ? high[h] : -low[h];
    if (a <= slD) {
      out[5] = f >= t1 ? 1 : 0;
      out[4] = h;
      out[0] = -1;
      out[1] = -1;
      if (e - slD > adv) adv = e - slD;
    } else {
      if (e - a > adv) adv = e - a;
      out[0] = 1;
      out[2] = h;
      if (f >= t2) {
        if (t2 - e > fav) fav = t2 - e;
        out[1] = 1;
        out[3] = h;
      } else {
        if (f - e > fav) fav = f - e;
        // After TP1: until SL or TP2.
        io[1] = walkIn[3];
        h = buy ? firstHitBuy(p, h + 1) : firstHitSell(p, h + 1);
        passedF = buy ? io[2] : -io[3];
        passedA = buy ? io[3] : -io[2];
        if (passedF - e > fav) fav = passedF - e;
        if (e - passedA > adv) adv = e - passedA;
        if (h < n) {
          a = buy ? low[h] : -high[h];
          f = buy ? high[h] : -low[h];
          if (a <= slD) {
            out[5] = f >= t2 ? 1 : 0;
            out[4] = h;
            out[1] = -1;
            if (e - slD > adv) adv = e - slD;
          } else {
            if (e - a > adv) adv = e - a;
            if (t2 - e > fav) fav = t2 - e;
            out[1] = 1;
            out[3] = h;
          }
        }
      }
    }
  }
  walkOutPrices[0] = fav;
  walkOutPrices[1] = adv;
}
