/**
 * The conservative trade walk over the run's candles, fast. A search for the first candle at or
 * after `from` whose low or high reaches a level (and for the extremes passed before it) costs a
 * handful of look-ups instead of a scan:
 *  - candles are grouped in blocks of 16; per candle, where the highest high and the lowest low
 *    are from it to the end of its block (suffix) and from the block's start to it (prefix), as
 *    offsets in the block (one byte each, read back from the prices, so values stay exact);
 *  - blocks are grouped in superblocks of 256 candles with their extremes, the suffix and prefix
 *    extremes of blocks inside each superblock, and the extremes of 2, 4 and 8 blocks from each;
 *  - the rest of the first block is tested at once, the first block of the superblock that reaches
 *    a level is found by binary lifting over 8, 4, 2, 1 blocks, whole superblocks are tested one
 *    at a time, and inside the first block that reaches a level a branch-free binary search over
 *    the prefix extremes (they only grow, so "reached by here" is monotone) finds the candle.
 * The extremes passed on the way feed the excursions. Same rules and same results as `walk`
 * (walk.ts states them; tests compare both on random data).
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
  /** Per candle: offset in its block of the extreme from it to the block's end. */
  readonly sufHighAt: Uint8Array;
  readonly sufLowAt: Uint8Array;
  /** Per candle: offset in its block of the extreme from the block's start to it; padded to whole blocks. */
  readonly preHighAt: Uint8Array;
  readonly preLowAt: Uint8Array;
  readonly blockHigh: Float64Array;
  readonly blockLow: Float64Array;
  /** Per block: extremes of 2, 4 and 8 blocks from it (fewer at the end). */
  readonly high2: Float64Array;
  readonly low2: Float64Array;
  readonly high4: Float64Array;
  readonly low4: Float64Array;
  readonly high8: Float64Array;
  readonly low8: Float64Array;
  /** Per block: extremes from it to the end of its superblock. */
  readonly blockSufHigh: Float64Array;
  readonly blockSufLow: Float64Array;
  /** Per block: extremes from its superblock's start to it, padded to whole superblocks. */
  readonly blockPreHigh: Float64Array;
  readonly blockPreLow: Float64Array;
  readonly superHigh: Float64Array;
  readonly superLow: Float64Array;
}

// Lengths are read as `typedArray.length | 0`: V8 types a typed array's length as a size that may
// exceed 2^31, and index arithmetic compared against it then runs in doubles, with a conversion
// at every access. Comparisons below skip NaN as the walk does (`x > best` is false for NaN).

interface CandleRuns {
  readonly sufHighAt: Uint8Array;
  readonly sufLowAt: Uint8Array;
  readonly preHighAt: Uint8Array;
  readonly preLowAt: Uint8Array;
  readonly blockHigh: Float64Array;
  readonly blockLow: Float64Array;
}

function candleRuns(high: Float64Array, low: Float64Array): CandleRuns {
  const n = high.length | 0;
  const blocks = (n + BLOCK - 1) >> SHIFT;
  const runs: CandleRuns = {
    sufHighAt: new Uint8Array(n),
    sufLowAt: new Uint8Array(n),
    preHighAt: new Uint8Array(blocks << SHIFT),
    preLowAt: new Uint8Array(blocks << SHIFT),
    blockHigh: new Float64Array(blocks),
    blockLow: new Float64Array(blocks),
  };
  for (let b = 0; b < blocks; b += 1024) blockRuns(runs, high, low, b, Math.min(blocks, b + 1024));
  return runs;
}

function blockRuns(runs: CandleRuns, high: Float64Array, low: Float64Array, b0: number, b1: number): void {
  const n = high.length | 0;
  const { sufHighAt, sufLowAt, preHighAt, preLowAt, blockHigh, blockLow } = runs;
  for (let b = b0; b < b1; b++) {
    const start = b << SHIFT;
    const end = Math.min(n, start + BLOCK);
    let h = -Infinity;
    let l = Infinity;
    let hAt = 0;
    let lAt = 0;
    for (let k = start; k < end; k++) {
      if (high[k] > h) {
        h = high[k];
        hAt = k - start;
      }
      if (low[k] < l) {
        l = low[k];
        lAt = k - start;
      }
      preHighAt[k] = hAt;
      preLowAt[k] = lAt;
    }
    for (let k = end; k < start + BLOCK; k++) {
      preHighAt[k] = hAt;
      preLowAt[k] = lAt;
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
      sufHighAt[k] = hAt;
      sufLowAt[k] = lAt;
    }
  }
}

/** Extremes of `width` values from each index (fewer at the end), from those of width/2. */
function doubled(high: Float64Array, low: Float64Array, half: number): [Float64Array, Float64Array] {
  const n = high.length | 0;
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    const c = b + half;
    hi[b] = c < n && high[c] > high[b] ? high[c] : high[b];
    lo[b] = c < n && low[c] < low[b] ? low[c] : low[b];
  }
  return [hi, lo];
}

/** Extremes of groups of 2^shift values. */
function extremes(high: Float64Array, low: Float64Array, shift: number): [Float64Array, Float64Array] {
  const n = high.length | 0;
  const count = (n + (1 << shift) - 1) >> shift;
  const hi = new Float64Array(count);
  const lo = new Float64Array(count);
  for (let g = 0; g < count; g++) {
    let h = -Infinity;
    let l = Infinity;
    const end = Math.min(n, (g + 1) << shift);
    for (let k = g << shift; k < end; k++) {
      if (high[k] > h) h = high[k];
      if (low[k] < l) l = low[k];
    }
    hi[g] = h;
    lo[g] = l;
  }
  return [hi, lo];
}

/** Running extremes of the blocks inside each superblock, suffix and prefix (prefix padded to whole superblocks). */
function superRuns(blockHigh: Float64Array, blockLow: Float64Array): { sufHigh: Float64Array; sufLow: Float64Array; preHigh: Float64Array; preLow: Float64Array } {
  const n = blockHigh.length | 0;
  const supers = ((n + PER_SUPER - 1) / PER_SUPER) | 0;
  const sufHigh = new Float64Array(n);
  const sufLow = new Float64Array(n);
  const preHigh = new Float64Array(supers * PER_SUPER);
  const preLow = new Float64Array(supers * PER_SUPER);
  for (let s = 0; s < supers; s++) {
    const start = s * PER_SUPER;
    const end = Math.min(n, start + PER_SUPER);
    let h = -Infinity;
    let l = Infinity;
    for (let b = start; b < start + PER_SUPER; b++) {
      if (b < end) {
        if (blockHigh[b] > h) h = blockHigh[b];
        if (blockLow[b] < l) l = blockLow[b];
      }
      preHigh[b] = h;
      preLow[b] = l;
    }
    h = -Infinity;
    l = Infinity;
    for (let b = end - 1; b >= start; b--) {
      if (blockHigh[b] > h) h = blockHigh[b];
      if (blockLow[b] < l) l = blockLow[b];
      sufHigh[b] = h;
      sufLow[b] = l;
    }
  }
  return { sufHigh, sufLow, preHigh, preLow };
}

// Candles are immutable once built: the blocks of a price series are computed once and shared by
// every strategy run on it.
const cache = new WeakMap<Float64Array, { low: Float64Array; blocks: PriceBlocks }>();

export function priceBlocks(high: Float64Array, low: Float64Array): PriceBlocks {
  const hit = cache.get(high);
  if (hit && hit.low === low) return hit.blocks;
  const candles = candleRuns(high, low);
  const { blockHigh, blockLow } = candles;
  const [high2, low2] = doubled(blockHigh, blockLow, 1);
  const [high4, low4] = doubled(high2, low2, 2);
  const [high8, low8] = doubled(high4, low4, 4);
  const [superHigh, superLow] = extremes(blockHigh, blockLow, SUPER_SHIFT - SHIFT);
  const inSuper = superRuns(blockHigh, blockLow);
  const blocks: PriceBlocks = {
    high,
    low,
    sufHighAt: candles.sufHighAt,
    sufLowAt: candles.sufLowAt,
    preHighAt: candles.preHighAt,
    preLowAt: candles.preLowAt,
    blockHigh,
    blockLow,
    high2,
    low2,
    high4,
    low4,
    high8,
    low8,
    blockSufHigh: inSuper.sufHigh,
    blockSufLow: inSuper.sufLow,
    blockPreHigh: inSuper.preHigh,
    blockPreLow: inSuper.preLow,
    superHigh,
    superLow,
  };
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
  if (below !== below || above !== above) return scanCandles(p, k, n, maxH, minL);
  if (k >= n) return done(n, maxH, minL);
  if ((k & (BLOCK - 1)) !== 0) {
    // The rest of from's block, in one test.
    const start = k & ~(BLOCK - 1);
    const h = high[start + p.sufHighAt[k]];
    const l = low[start + p.sufLowAt[k]];
    if (l <= below || h >= above) return scanCandles(p, k, n, maxH, minL);
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
    k = start + BLOCK;
    if (k >= n) return done(n, maxH, minL);
  }
  if ((k & (SUPER - 1)) !== 0) {
    // The rest of the superblock, in one test.
    const b = k >> SHIFT;
    const sufHigh = p.blockSufHigh[b];
    const sufLow = p.blockSufLow[b];
    if (sufLow > below && sufHigh < above) {
      if (sufHigh > maxH) maxH = sufHigh;
      if (sufLow < minL) minL = sufLow;
      k = ((k >> SUPER_SHIFT) + 1) << SUPER_SHIFT;
    } else {
      // One of its blocks reaches a level, at most 15 blocks on: binary lifting finds the first.
      let x = b;
      x += 8 * (+(p.low8[x] > below) & +(p.high8[x] < above));
      x += 4 * (+(p.low4[x] > below) & +(p.high4[x] < above));
      x += 2 * (+(p.low2[x] > below) & +(p.high2[x] < above));
      x += +(p.blockLow[x] > below) & +(p.blockHigh[x] < above);
      if (x > b) {
        // Extremes of blocks [b, x): two windows of a power of two that cover it.
        const span = x - b;
        const w = 31 - Math.clz32(span);
        const c = x - (1 << w);
        const hs = w === 0 ? p.blockHigh : w === 1 ? p.high2 : w === 2 ? p.high4 : p.high8;
        const ls = w === 0 ? p.blockLow : w === 1 ? p.low2 : w === 2 ? p.low4 : p.low8;
        if (hs[b] > maxH) maxH = hs[b];
        if (hs[c] > maxH) maxH = hs[c];
        if (ls[b] < minL) minL = ls[b];
        if (ls[c] < minL) minL = ls[c];
      }
      return firstInBlock(p, x, maxH, minL);
    }
  }
  const superHigh = p.superHigh;
  const superLow = p.superLow;
  while (k < n) {
    const s = k >> SUPER_SHIFT;
    if (superLow[s] > below && superHigh[s] < above) {
      if (superHigh[s] > maxH) maxH = superHigh[s];
      if (superLow[s] < minL) minL = superLow[s];
      k += SUPER;
      continue;
    }
    // The first block of the superblock that reaches a level: its prefix extremes reach it first.
    const preHigh = p.blockPreHigh;
    const preLow = p.blockPreLow;
    const first = s * PER_SUPER;
    let b = first;
    b += 8 * (+(preLow[b + 7] > below) & +(preHigh[b + 7] < above));
    b += 4 * (+(preLow[b + 3] > below) & +(preHigh[b + 3] < above));
    b += 2 * (+(preLow[b + 1] > below) & +(preHigh[b + 1] < above));
    b += +(preLow[b] > below) & +(preHigh[b] < above);
    if (b > first) {
      if (preHigh[b - 1] > maxH) maxH = preHigh[b - 1];
      if (preLow[b - 1] < minL) minL = preLow[b - 1];
    }
    return firstInBlock(p, b, maxH, minL);
  }
  return done(n, maxH, minL);
}

function done(k: number, maxH: number, minL: number): number {
  io[2] = maxH;
  io[3] = minL;
  return k;
}

/** The first candle of block b that reaches a level (one does), with the extremes passed before it. */
function firstInBlock(p: PriceBlocks, b: number, maxH: number, minL: number): number {
  const below = io[0];
  const above = io[1];
  const { high, low, preHighAt, preLowAt } = p;
  const first = b << SHIFT;
  let k = first;
  // "Not reached" written as !(reached), so that a candle without prices (NaN) never counts.
  k += 8 * (+!(low[first + preLowAt[k + 7]] <= below) & +!(high[first + preHighAt[k + 7]] >= above));
  k += 4 * (+!(low[first + preLowAt[k + 3]] <= below) & +!(high[first + preHighAt[k + 3]] >= above));
  k += 2 * (+!(low[first + preLowAt[k + 1]] <= below) & +!(high[first + preHighAt[k + 1]] >= above));
  k += +!(low[first + preLowAt[k]] <= below) & +!(high[first + preHighAt[k]] >= above);
  if (k > first) {
    const h = high[first + preHighAt[k - 1]];
    const l = low[first + preLowAt[k - 1]];
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
  }
  return done(k, maxH, minL);
}

/** The candles from k to the first that reaches a level; n when none. */
function scanCandles(p: PriceBlocks, k: number, n: number, maxH: number, minL: number): number {
  const { high, low } = p;
  const below = io[0];
  const above = io[1];
  for (; k < n; k++) {
    const l = low[k];
    const h = high[k];
    if (l <= below || h >= above) break;
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
  }
  return done(k, maxH, minL);
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
