/**
 * The conservative trade walk over the run's candles, fast. A search for the first candle at or
 * after `from` whose low or high reaches a level (and for the extremes passed before it) costs a
 * handful of look-ups instead of a scan:
 *  - candles are grouped in blocks of 16; per candle, where the highest high and the lowest low
 *    are from it to the end of its block (suffix) and from the block's start to it (prefix), as
 *    offsets in the block (one byte each, read back from the prices, so values stay exact);
 *  - blocks are grouped in superblocks of 256 candles with their extremes, the suffix and prefix
 *    extremes of blocks inside each superblock, and the extremes of 1, 2, 4 and 8 blocks from each;
 *  - the rest of the first block is tested at once, the first block of the superblock that reaches
 *    a level is found by binary lifting over 8, 4, 2, 1 blocks, whole superblocks are tested one
 *    at a time, and inside the first block that reaches a level a branch-free binary search over
 *    the prefix extremes (they only grow, so "reached by here" is monotone) finds the candle.
 * What one step reads is stored side by side (one cache line per block and per window record):
 * on a shared machine the walk's cost is mostly cache misses. The extremes passed on the way feed
 * the excursions. Same rules and same results as `walk` (walk.ts states them; tests compare both
 * on random data).
 */
const SHIFT = 4;
const BLOCK = 1 << SHIFT;
const SUPER_SHIFT = 8;
const SUPER = 1 << SUPER_SHIFT;
const PER_SUPER = SUPER / BLOCK;

/** Highs and lows with their group extremes (see above). */
export interface PriceBlocks {
  readonly high: Float64Array;
  readonly low: Float64Array;
  /**
   * Per candle k, at 4k..4k+3: offsets in its block of the highest high and lowest low from k to
   * the block's end, then from the block's start to k. Padded to whole blocks (prefix only).
   */
  readonly candleAt: Uint8Array;
  /** Per block b, at 8b..8b+7: highest high and lowest low of 1, 2, 4 and 8 blocks from b (fewer at the end). */
  readonly windows: Float64Array;
  /**
   * Per block b, at 4b..4b+3: highest high and lowest low from b to the end of its superblock,
   * then from the superblock's start to b. Padded to whole superblocks (prefix only).
   */
  readonly inSuper: Float64Array;
  /** Per superblock s, at 2s and 2s+1: its highest high and lowest low. */
  readonly supers: Float64Array;
}

// Lengths are read as `typedArray.length | 0`: V8 types a typed array's length as a size that may
// exceed 2^31, and index arithmetic compared against it then runs in doubles, with a conversion
// at every access. Comparisons below skip NaN as the walk does (`x > best` is false for NaN).

function candleOffsets(high: Float64Array, low: Float64Array, blocks: number): { candleAt: Uint8Array; blockHigh: Float64Array; blockLow: Float64Array } {
  const out = { candleAt: new Uint8Array(4 * (blocks << SHIFT)), blockHigh: new Float64Array(blocks), blockLow: new Float64Array(blocks) };
  for (let b = 0; b < blocks; b += 1024) blockOffsets(out.candleAt, out.blockHigh, out.blockLow, high, low, b, Math.min(blocks, b + 1024));
  return out;
}

function blockOffsets(at: Uint8Array, blockHigh: Float64Array, blockLow: Float64Array, high: Float64Array, low: Float64Array, b0: number, b1: number): void {
  const n = high.length | 0;
  for (let b = b0; b < b1; b++) {
    const start = b << SHIFT;
    const end = Math.min(n, start + BLOCK);
    let h = -Infinity;
    let l = Infinity;
    let hAt = 0;
    let lAt = 0;
    for (let k = start; k < start + BLOCK; k++) {
      if (k < end) {
        if (high[k] > h) {
          h = high[k];
          hAt = k - start;
        }
        if (low[k] < l) {
          l = low[k];
          lAt = k - start;
        }
      }
      at[4 * k + 2] = hAt;
      at[4 * k + 3] = lAt;
    }
    blockHigh[b] = h;
    blockLow[b] = l;
    h = -Infinity;
    l = Infinity;
    hAt = end - 1 - start;
    lAt = hAt;
    for (let k = end - 1; k >= start; k--) {
      if (high[k] > h) {
        h = high[k];
        hAt = k - start;
      }
      if (low[k] < l) {
        l = low[k];
        lAt = k - start;
      }
      at[4 * k] = hAt;
      at[4 * k + 1] = lAt;
    }
  }
}

/** Window records: extremes of 1, 2, 4 and 8 blocks from each block. */
function blockWindows(blockHigh: Float64Array, blockLow: Float64Array): Float64Array {
  const n = blockHigh.length | 0;
  const w = new Float64Array(8 * n);
  for (let b = 0; b < n; b += 4096) firstWindows(w, blockHigh, blockLow, b, Math.min(n, b + 4096));
  for (let level = 1; level < 4; level++) {
    for (let b = 0; b < n; b += 4096) doubledWindows(w, n, level, b, Math.min(n, b + 4096));
  }
  return w;
}

function firstWindows(w: Float64Array, blockHigh: Float64Array, blockLow: Float64Array, b0: number, b1: number): void {
  for (let b = b0; b < b1; b++) {
    w[8 * b] = blockHigh[b];
    w[8 * b + 1] = blockLow[b];
  }
}

/** Windows of 2^level blocks from those of 2^(level-1), for blocks [b0, b1). */
function doubledWindows(w: Float64Array, n: number, level: number, b0: number, b1: number): void {
  const half = 1 << (level - 1);
  const from = 2 * level - 2;
  for (let b = b0; b < b1; b++) {
    const c = b + half;
    const h = w[8 * b + from];
    const l = w[8 * b + from + 1];
    w[8 * b + from + 2] = c < n && w[8 * c + from] > h ? w[8 * c + from] : h;
    w[8 * b + from + 3] = c < n && w[8 * c + from + 1] < l ? w[8 * c + from + 1] : l;
  }
}

/** superRuns for superblocks [s0, s1). */
function superRange(inSuper: Float64Array, supers: Float64Array, blockHigh: Float64Array, blockLow: Float64Array, s0: number, s1: number): void {
  const n = blockHigh.length | 0;
  for (let s = s0; s < s1; s++) {
    const start = s * PER_SUPER;
    const end = Math.min(n, start + PER_SUPER);
    let h = -Infinity;
    let l = Infinity;
    for (let b = start; b < start + PER_SUPER; b++) {
      if (b < end) {
        if (blockHigh[b] > h) h = blockHigh[b];
        if (blockLow[b] < l) l = blockLow[b];
      }
      inSuper[4 * b + 2] = h;
      inSuper[4 * b + 3] = l;
    }
    supers[2 * s] = h;
    supers[2 * s + 1] = l;
    h = -Infinity;
    l = Infinity;
    for (let b = end - 1; b >= start; b--) {
      if (blockHigh[b] > h) h = blockHigh[b];
      if (blockLow[b] < l) l = blockLow[b];
      inSuper[4 * b] = h;
      inSuper[4 * b + 1] = l;
    }
  }
}

/** Suffix and prefix extremes of the blocks inside each superblock, and each superblock's extremes. */
function superRuns(blockHigh: Float64Array, blockLow: Float64Array): { inSuper: Float64Array; supers: Float64Array } {
  const n = blockHigh.length | 0;
  const count = ((n + PER_SUPER - 1) / PER_SUPER) | 0;
  const inSuper = new Float64Array(4 * count * PER_SUPER);
  const supers = new Float64Array(2 * count);
  for (let s = 0; s < count; s += 256) superRange(inSuper, supers, blockHigh, blockLow, s, Math.min(count, s + 256));
  return { inSuper, supers };
}

// Candles are immutable once built: the blocks of a price series are computed once and shared by
// every strategy run on it.
const cache = new WeakMap<Float64Array, { low: Float64Array; blocks: PriceBlocks }>();

export function priceBlocks(high: Float64Array, low: Float64Array): PriceBlocks {
  const hit = cache.get(high);
  if (hit && hit.low === low) return hit.blocks;
  const count = ((high.length | 0) + BLOCK - 1) >> SHIFT;
  const { candleAt, blockHigh, blockLow } = candleOffsets(high, low, count);
  const { inSuper, supers } = superRuns(blockHigh, blockLow);
  const blocks: PriceBlocks = { high, low, candleAt, windows: blockWindows(blockHigh, blockLow), inSuper, supers };
  cache.set(high, { low, blocks });
  return blocks;
}

// Prices cross function boundaries through typed scratch, never as arguments or module `let`s:
// V8 boxes a double passed to a call it does not inline, and one stored in a module variable,
// which costs an allocation per trade. Slots: lower level, upper level, passed high, passed low.
const io = new Float64Array(4);

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
      // One of its blocks reaches a level, at most 15 blocks on: binary lifting finds the first.
      const w = p.windows;
      let x = b;
      x += 8 * (+(w[8 * x + 7] > below) & +(w[8 * x + 6] < above));
      x += 4 * (+(w[8 * x + 5] > below) & +(w[8 * x + 4] < above));
      x += 2 * (+(w[8 * x + 3] > below) & +(w[8 * x + 2] < above));
      x += +(w[8 * x + 1] > below) & +(w[8 * x] < above);
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
    let b = first;
    b += 8 * (+(inSuper[4 * b + 31] > below) & +(inSuper[4 * b + 30] < above));
    b += 4 * (+(inSuper[4 * b + 15] > below) & +(inSuper[4 * b + 14] < above));
    b += 2 * (+(inSuper[4 * b + 7] > below) & +(inSuper[4 * b + 6] < above));
    b += +(inSuper[4 * b + 3] > below) & +(inSuper[4 * b + 2] < above);
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
  let k = first;
  // "Not reached" written as !(reached), so that a candle without prices (NaN) never counts.
  k += 8 * (+!(low[first + candleAt[4 * k + 31]] <= below) & +!(high[first + candleAt[4 * k + 30]] >= above));
  k += 4 * (+!(low[first + candleAt[4 * k + 15]] <= below) & +!(high[first + candleAt[4 * k + 14]] >= above));
  k += 2 * (+!(low[first + candleAt[4 * k + 7]] <= below) & +!(high[first + candleAt[4 * k + 6]] >= above));
  k += +!(low[first + candleAt[4 * k + 3]] <= below) & +!(high[first + candleAt[4 * k + 2]] >= above);
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
