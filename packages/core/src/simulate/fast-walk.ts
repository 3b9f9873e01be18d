/**
 * The conservative trade walk over the run's candles, fast. A search for the first candle at or
 * after `from` whose low or high reaches a level (and for the extremes passed before it) costs a
 * handful of look-ups instead of a scan:
 *  - candles are grouped in blocks of 16; per candle, where the highest high and the lowest low
 *    are from it to the end of its block (suffix) and from the block's start to it (prefix), as
 *    offsets in the block (one byte each, read back from the prices, so values stay exact);
 *  - blocks are grouped in superblocks of 256 candles with their extremes, the suffix and prefix
 *    extremes of blocks inside each superblock, and the extremes of 1, 2, 4 and 8 blocks from each;
 *  - the rest of the first block is tested at once, then the rest of its superblock, then whole
 *    superblocks one at a time; the first block that reaches a level, and the candle inside it,
 *    are each found in two rounds of three independent, branch-free tests (groups of 4, then the
 *    first three of the group found): the answer is the length of the leading run of tests that
 *    reach nothing (prefix extremes only grow, so theirs is a count; windows from the start are
 *    chained with `&`). The search is bound by the latency of its loads: a binary search's steps
 *    each waited for the previous one's.
 * What one step reads is stored side by side (one cache line per block and per window record):
 * on a shared machine the walk's cost is mostly cache misses. The extremes passed on the way feed
 * the excursions. Same rules and same results as `walk` (walk.ts states them; tests compare both
 * on random data).
 */
import { BLOCK, PER_SUPER, SHIFT, SUPER, SUPER_SHIFT, type PriceBlocks } from './price-blocks.js';

export { priceBlocks, type PriceBlocks } from './price-blocks.js';

// Lengths are read as `typedArray.length | 0` (price-blocks.ts says why).

// Prices cross function boundaries through typed scratch, never as arguments or module `let`s:
// V8 boxes a double passed to a call it does not inline, and one stored in a module variable,
// which costs an allocation per trade. Slots: lower level, upper level, passed high, passed low.
const io = new Float64Array(4);

/**
 * firstExit for the optimiser's exit grid (optimize/exit-grid.ts): the levels go in `exitLevels`
 * (lower, upper; ±Infinity for a side not searched), the first candle from `from` that reaches one
 * comes back (n when none). Same search, so the same candle as the walk finds.
 */
export const exitLevels = io;
export function firstReach(p: PriceBlocks, from: number): number {
  return firstExit(p, from);
}

/**
 * First k in [from, n) with `low[k] <= io[0]` or `high[k] >= io[1]`; n when none. A buy passes
 * (stop, target), a sell (target, stop). Also sets io[2]/io[3] to the highest high and lowest low
 * of [from, k) (-Infinity/Infinity when empty).
 */
function firstExit(p: PriceBlocks, from: number): number {
  const below = io[0];
  const above = io[1];
  const { high, low } = p;
  const n = high.length | 0;
  let maxH = -Infinity;
  let minL = Infinity;
  let k = from;
  // NaN levels are reached by no candle, and no group test can be trusted with them.
  if (below !== below || above !== above || k >= n) return scanCandles(p, k, n);
  if ((k & (BLOCK - 1)) !== 0) {
    // The rest of from's block, in one test.
    const start = k & ~(BLOCK - 1);
    const h = high[start + p.candleAt[4 * k]];
    const l = low[start + p.candleAt[4 * k + 1]];
    if (l <= below || h >= above) return scanCandles(p, k, n);
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
    k = start + BLOCK;
    if (k >= n) {
      io[2] = maxH;
      io[3] = minL;
      return n;
    }
  }
  if ((k & (SUPER - 1)) !== 0) {
    // The rest of the superblock, in one test.
    const b = k >> SHIFT;
    const inSuper = p.inSuper;
    const sufHigh = inSuper[4 * b];
    const sufLow = inSuper[4 * b + 1];
    if (sufLow > below && sufHigh < above) {
      if (sufHigh > maxH) maxH = sufHigh;
      if (sufLow < minL) minL = sufLow;
      k = ((k >> SUPER_SHIFT) + 1) << SUPER_SHIFT;
    } else {
      // One of its blocks reaches a level, at most 15 blocks on. The first is found in two rounds
      // of three independent tests (see firstInBlock): the groups of 4 blocks from b that reach
      // nothing, one after the other (windows of 4), then the blocks of the next group (windows
      // of 1). A group past the series' last block is read at the last block instead: its test
      // only counts when every group before it reached nothing, and then it is not past the end.
      const w = p.windows;
      const lastBlock = (w.length >> 3) - 1;
      const g0 = +(w[8 * b + 5] > below) & +(w[8 * b + 4] < above);
      const y1 = 8 * Math.min(b + 4, lastBlock);
      const g1 = g0 & +(w[y1 + 5] > below) & +(w[y1 + 4] < above);
      const y2 = 8 * Math.min(b + 8, lastBlock);
      const g2 = g1 & +(w[y2 + 5] > below) & +(w[y2 + 4] < above);
      const y = b + 4 * (g0 + g1 + g2);
      const c0 = +(w[8 * y + 1] > below) & +(w[8 * y] < above);
      const z1 = 8 * Math.min(y + 1, lastBlock);
      const c1 = c0 & +(w[z1 + 1] > below) & +(w[z1] < above);
      const z2 = 8 * Math.min(y + 2, lastBlock);
      const c2 = c1 & +(w[z2 + 1] > below) & +(w[z2] < above);
      const x = y + c0 + c1 + c2;
      if (x > b) {
        // Extremes of blocks [b, x): two windows of a power of two that cover it.
        const level = 31 - Math.clz32(x - b);
        const c = 8 * (x - (1 << level)) + 2 * level;
        const d = 8 * b + 2 * level;
        if (w[d] > maxH) maxH = w[d];
        if (w[c] > maxH) maxH = w[c];
        if (w[d + 1] < minL) minL = w[d + 1];
        if (w[c + 1] < minL) minL = w[c + 1];
      }
      io[2] = maxH;
      io[3] = minL;
      return firstInBlock(p, x);
    }
  }
  const supers = p.supers;
  while (k < n) {
    const s = k >> SUPER_SHIFT;
    const h = supers[2 * s];
    const l = supers[2 * s + 1];
    if (l > below && h < above) {
      if (h > maxH) maxH = h;
      if (l < minL) minL = l;
      k += SUPER;
      continue;
    }
    // The first block of the superblock that reaches a level: its prefix extremes reach it first.
    const inSuper = p.inSuper;
    const first = s * PER_SUPER;
    // Prefix extremes only grow: counted like firstInBlock's, by groups of 4 blocks then blocks.
    const f4 = 4 * first;
    const g =
      (+(inSuper[f4 + 15] > below) & +(inSuper[f4 + 14] < above)) +
      (+(inSuper[f4 + 31] > below) & +(inSuper[f4 + 30] < above)) +
      (+(inSuper[f4 + 47] > below) & +(inSuper[f4 + 46] < above));
    const q = f4 + 16 * g;
    const b =
      first +
      4 * g +
      (+(inSuper[q + 3] > below) & +(inSuper[q + 2] < above)) +
      (+(inSuper[q + 7] > below) & +(inSuper[q + 6] < above)) +
      (+(inSuper[q + 11] > below) & +(inSuper[q + 10] < above));
    if (b > first) {
      if (inSuper[4 * b - 2] > maxH) maxH = inSuper[4 * b - 2];
      if (inSuper[4 * b - 1] < minL) minL = inSuper[4 * b - 1];
    }
    io[2] = maxH;
    io[3] = minL;
    return firstInBlock(p, b);
  }
  io[2] = maxH;
  io[3] = minL;
  return n;
}

/**
 * The first candle of block b that reaches a level (one does); io[2]/io[3] hold the extremes
 * passed before the block and get those passed before the candle. Doubles go through `io`, not
 * arguments: V8 boxes a double passed to a call it does not inline.
 */
function firstInBlock(p: PriceBlocks, b: number): number {
  const below = io[0];
  const above = io[1];
  let maxH = io[2];
  let minL = io[3];
  const { high, low, candleAt } = p;
  const first = b << SHIFT;
  // Prefix extremes only grow, so "not reached by candle c" holds for a run of candles from the
  // block's start and the answer is the length of that run: counted in two rounds of three
  // independent tests (by the ends of the first three groups of 4 candles, then by the first three
  // candles of the group found), instead of a binary search whose four steps each wait for the
  // previous one's loads. "Not reached" is written !(reached), so that a candle without prices
  // (NaN) never counts.
  const f4 = 4 * first;
  const g =
    (+!(low[first + candleAt[f4 + 15]] <= below) & +!(high[first + candleAt[f4 + 14]] >= above)) +
    (+!(low[first + candleAt[f4 + 31]] <= below) & +!(high[first + candleAt[f4 + 30]] >= above)) +
    (+!(low[first + candleAt[f4 + 47]] <= below) & +!(high[first + candleAt[f4 + 46]] >= above));
  const q = f4 + 16 * g;
  const k =
    first +
    4 * g +
    (+!(low[first + candleAt[q + 3]] <= below) & +!(high[first + candleAt[q + 2]] >= above)) +
    (+!(low[first + candleAt[q + 7]] <= below) & +!(high[first + candleAt[q + 6]] >= above)) +
    (+!(low[first + candleAt[q + 11]] <= below) & +!(high[first + candleAt[q + 10]] >= above));
  if (k > first) {
    const h = high[first + candleAt[4 * k - 2]];
    const l = low[first + candleAt[4 * k - 1]];
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
  }
  io[2] = maxH;
  io[3] = minL;
  return k;
}

/** The candles from k to the first that reaches a level, n when none; the extremes passed in io[2]/io[3]. */
function scanCandles(p: PriceBlocks, k: number, n: number): number {
  const { high, low } = p;
  const below = io[0];
  const above = io[1];
  let maxH = -Infinity;
  let minL = Infinity;
  for (; k < n; k++) {
    const l = low[k];
    const h = high[k];
    if (l <= below || h >= above) break;
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
  }
  io[2] = maxH;
  io[3] = minL;
  return k;
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
  const n = high.length | 0;
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
  // firstExit looks for `low <= io[0]` or `high >= io[1]`: (stop, target) for a buy, (target, stop) for a sell.
  io[0] = buy ? sl : walkIn[2];
  io[1] = buy ? walkIn[2] : sl;
  let h = firstExit(p, k);
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
        if (buy) io[1] = walkIn[3];
        else io[0] = walkIn[3];
        h = firstExit(p, h + 1);
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
