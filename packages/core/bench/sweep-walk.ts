// A different walk, for measurement (docs/engine.md §11): every trade of a run walked together in
// one pass over the candles, instead of a search per trade. Each trade's pending exit is a pair of
// levels ("low <= below or high >= above") kept in two bucket queues keyed by price; per candle,
// two comparisons say whether any level is reached, and only then are buckets opened. Same rules
// and outputs as fast-walk.ts's fastWalk (the bench checks every trade).
import { BLOCK, SHIFT, SUPER_SHIFT, type PriceBlocks } from '../src/simulate/price-blocks.js';
import type { TradeTable } from '../src/simulate/trades.js';
import type { WalkInput } from './lib/walk-trades.js';

/** The trades as the walk reads them (bench/lib/walk-trades.ts). */
export type SweepInput = WalkInput;

/** What the sweep writes per trade: the walk's columns of the trade table. */
export type SweepOutput = Pick<TradeTable, 'r1' | 'r2' | 'tp1At' | 'tp2At' | 'slAt' | 'fav' | 'adv' | 'ambiguous'>;

const rq = new Float64Array(2);

/** Highest high and lowest low of [a, b) into rq (-Infinity / Infinity when empty). */
function rangeExtremes(p: PriceBlocks, a: number, b: number): void {
  const { high, low } = p;
  let h = -Infinity;
  let l = Infinity;
  if (b - a <= 24) {
    for (let k = a; k < b; k++) {
      if (high[k] > h) h = high[k];
      if (low[k] < l) l = low[k];
    }
    rq[0] = h;
    rq[1] = l;
    return;
  }
  const at = p.candleAt;
  // Suffix of a's block, prefix of (b-1)'s block.
  const sa = a & ~(BLOCK - 1);
  const last = b - 1;
  const sb = last & ~(BLOCK - 1);
  h = high[sa + at[4 * a]];
  l = low[sa + at[4 * a + 1]];
  const h2 = high[sb + at[4 * last + 2]];
  const l2 = low[sb + at[4 * last + 3]];
  if (h2 > h) h = h2;
  if (l2 < l) l = l2;
  // Whole blocks between.
  let b0 = (a >> SHIFT) + 1;
  const b1 = last >> SHIFT; // exclusive
  if (b1 > b0) {
    const w = p.windows;
    if (b1 - b0 <= 8) {
      const level = 31 - Math.clz32(b1 - b0);
      const c = 8 * (b1 - (1 << level)) + 2 * level;
      const d = 8 * b0 + 2 * level;
      if (w[d] > h) h = w[d];
      if (w[c] > h) h = w[c];
      if (w[d + 1] < l) l = w[d + 1];
      if (w[c + 1] < l) l = w[c + 1];
    } else {
      const inSuper = p.inSuper;
      const s0 = b0 >> (SUPER_SHIFT - SHIFT);
      const s1 = (b1 - 1) >> (SUPER_SHIFT - SHIFT);
      if (s0 === s1) {
        // Inside one superblock: suffix from b0 would overshoot; walk windows of 8.
        while (b1 - b0 > 8) {
          if (w[8 * b0 + 6] > h) h = w[8 * b0 + 6];
          if (w[8 * b0 + 7] < l) l = w[8 * b0 + 7];
          b0 += 8;
        }
        const level = 31 - Math.clz32(b1 - b0);
        const c = 8 * (b1 - (1 << level)) + 2 * level;
        const d = 8 * b0 + 2 * level;
        if (w[d] > h) h = w[d];
        if (w[c] > h) h = w[c];
        if (w[d + 1] < l) l = w[d + 1];
        if (w[c + 1] < l) l = w[c + 1];
      } else {
        if (inSuper[4 * b0] > h) h = inSuper[4 * b0];
        if (inSuper[4 * b0 + 1] < l) l = inSuper[4 * b0 + 1];
        const lb = b1 - 1;
        if (inSuper[4 * lb + 2] > h) h = inSuper[4 * lb + 2];
        if (inSuper[4 * lb + 3] < l) l = inSuper[4 * lb + 3];
        const supers = p.supers;
        for (let s = s0 + 1; s < s1; s++) {
          if (supers[2 * s] > h) h = supers[2 * s];
          if (supers[2 * s + 1] < l) l = supers[2 * s + 1];
        }
      }
    }
  }
  rq[0] = h;
  rq[1] = l;
}

/**
 * Trades in buckets by price: a doubly linked list per bucket (typed arrays indexed by trade) and
 * a bitmap of the non-empty buckets. A trade sits in at most one bucket.
 */
class BucketList {
  readonly head: Int32Array;
  readonly next: Int32Array;
  readonly prev: Int32Array;
  /** The trade's bucket, -1 when in none. */
  readonly bucket: Int32Array;
  readonly bits: Int32Array;

  constructor(buckets: number, m: number) {
    this.head = new Int32Array(buckets).fill(-1);
    this.bits = new Int32Array(buckets >> 5);
    this.next = new Int32Array(m);
    this.prev = new Int32Array(m);
    this.bucket = new Int32Array(m).fill(-1);
  }

  reset(): void {
    this.head.fill(-1);
    this.bits.fill(0);
    this.bucket.fill(-1);
  }

  add(t: number, k: number): void {
    const h = this.head[k];
    this.next[t] = h;
    this.prev[t] = -1;
    if (h >= 0) this.prev[h] = t;
    this.head[k] = t;
    this.bucket[t] = k;
    this.bits[k >> 5] |= 1 << (k & 31);
  }

  remove(t: number): void {
    const k = this.bucket[t];
    if (k < 0) return;
    const n = this.next[t];
    const p = this.prev[t];
    if (p >= 0) this.next[p] = n;
    else {
      this.head[k] = n;
      if (n < 0) this.bits[k >> 5] &= ~(1 << (k & 31));
    }
    if (n >= 0) this.prev[n] = p;
    this.bucket[t] = -1;
  }
}

/** Bucket queues and per-trade state of one sweep. */
class Sweep {
  readonly buckets: number;
  readonly base: number;
  readonly highest: number;
  readonly inv: number;
  /** Below queue: fires when low <= below. */
  readonly belowQ: BucketList;
  topB = -1;
  /** The highest pending below level (or higher, after a removal): the per-candle gate. */
  maxBelow = -Infinity;
  /** Above queue: fires when high >= above. */
  readonly aboveQ: BucketList;
  botA = 1 << 30;
  /** The lowest pending above level (or lower, after a removal). */
  minAbove = Infinity;
  readonly below: Float64Array;
  readonly above: Float64Array;
  readonly from: Int32Array;
  readonly phase: Int8Array;
  readonly pending: Int32Array;
  readonly capacity: number;
  pendingCount = 0;

  constructor(m: number, lowest: number, highest: number) {
    const buckets = 4096;
    this.buckets = buckets;
    this.base = lowest;
    this.highest = highest;
    this.inv = highest > lowest ? buckets / (highest - lowest) : 1;
    this.capacity = m;
    this.belowQ = new BucketList(buckets, m);
    this.aboveQ = new BucketList(buckets, m);
    this.below = new Float64Array(m);
    this.above = new Float64Array(m);
    this.from = new Int32Array(m);
    this.phase = new Int8Array(m);
    this.pending = new Int32Array(m);
  }
}

function key(s: Sweep, x: number): number {
  const y = Math.floor((x - s.base) * s.inv);
  return y < 0 ? 0 : y >= s.buckets ? s.buckets - 1 : y;
}

function insert(s: Sweep, t: number): void {
  const b = s.below[t];
  if (b === b) {
    const k = key(s, b);
    s.belowQ.add(t, k);
    if (k > s.topB) s.topB = k;
    if (b > s.maxBelow) s.maxBelow = b;
  }
  const a = s.above[t];
  if (a === a) {
    const k = key(s, a);
    s.aboveQ.add(t, k);
    if (k < s.botA) s.botA = k;
    if (a < s.minAbove) s.minAbove = a;
  }
}

function unlink(s: Sweep, t: number): void {
  s.belowQ.remove(t);
  s.aboveQ.remove(t);
}

/** Highest non-empty bucket at or below k, -1 if none. */
function highestAtOrBelow(bits: Int32Array, k: number): number {
  let w = k >> 5;
  const r = k & 31;
  let word = r === 31 ? bits[w] : bits[w] & ((1 << (r + 1)) - 1);
  for (;;) {
    if (word !== 0) return (w << 5) + 31 - Math.clz32(word);
    if (--w < 0) return -1;
    word = bits[w];
  }
}

/** Lowest non-empty bucket at or above k, 1 << 30 if none. */
function lowestAtOrAbove(bits: Int32Array, k: number): number {
  let w = k >> 5;
  const n = bits.length;
  let word = bits[w] & ~((1 << (k & 31)) - 1);
  for (;;) {
    if (word !== 0) return (w << 5) + 31 - Math.clz32(word & -word);
    if (++w >= n) return 1 << 30;
    word = bits[w];
  }
}

/** One query of trade t reached at candle k: fastWalk's rules after its search. */
function fire(s: Sweep, p: PriceBlocks, t: number, k: number, input: SweepInput, out: SweepOutput): void {
  unlink(s, t);
  const { high, low } = p;
  const dir = input.side[t];
  const buy = dir > 0;
  const e = dir * input.fill[t];
  const slD = dir * input.sl[t];
  const t1 = dir * input.tp1[t];
  const t2 = dir * input.tp2[t];
  rangeExtremes(p, s.from[t], k);
  const passedF = buy ? rq[0] : -rq[1];
  const passedA = buy ? rq[1] : -rq[0];
  let fav = out.fav[t];
  let adv = out.adv[t];
  if (passedF - e > fav) fav = passedF - e;
  if (e - passedA > adv) adv = e - passedA;
  const a = buy ? low[k] : -high[k];
  const f = buy ? high[k] : -low[k];
  const phase = s.phase[t];
  s.phase[t] = 0;
  if (phase === 1) {
    if (a <= slD) {
      out.ambiguous[t] = f >= t1 ? 1 : 0;
      out.slAt[t] = k;
      out.r1[t] = -1;
      out.r2[t] = -1;
      if (e - slD > adv) adv = e - slD;
    } else {
      if (e - a > adv) adv = e - a;
      out.r1[t] = 1;
      out.tp1At[t] = k;
      if (f >= t2) {
        if (t2 - e > fav) fav = t2 - e;
        out.r2[t] = 1;
        out.tp2At[t] = k;
      } else {
        if (f - e > fav) fav = f - e;
        s.phase[t] = 2;
        s.from[t] = k + 1;
        if (buy) s.above[t] = input.tp2[t];
        else s.below[t] = input.tp2[t];
        s.pending[s.pendingCount++] = t;
      }
    }
  } else {
    if (a <= slD) {
      out.ambiguous[t] = f >= t2 ? 1 : 0;
      out.slAt[t] = k;
      out.r2[t] = -1;
      if (e - slD > adv) adv = e - slD;
    } else {
      if (e - a > adv) adv = e - a;
      if (t2 - e > fav) fav = t2 - e;
      out.r2[t] = 1;
      out.tp2At[t] = k;
    }
  }
  out.fav[t] = fav;
  out.adv[t] = adv;
}

/** Start of trade t at its entry candle j (fastWalk's opening: the resting fill candle's rule). */
function open(s: Sweep, p: PriceBlocks, t: number, j: number, input: SweepInput, out: SweepOutput): void {
  const dir = input.side[t];
  const buy = dir > 0;
  out.r1[t] = 0;
  out.r2[t] = 0;
  out.tp1At[t] = -1;
  out.tp2At[t] = -1;
  out.slAt[t] = -1;
  out.ambiguous[t] = 0;
  out.fav[t] = 0;
  out.adv[t] = 0;
  const sl = input.sl[t];
  s.phase[t] = 1;
  s.below[t] = buy ? sl : input.tp1[t];
  s.above[t] = buy ? input.tp1[t] : sl;
  if (input.resting[t] === 1) {
    const e = dir * input.fill[t];
    const slD = dir * sl;
    const a = buy ? p.low[j] : -p.high[j];
    if (a <= slD) {
      out.ambiguous[t] = (buy ? p.high[j] : -p.low[j]) >= dir * input.tp1[t] ? 1 : 0;
      out.slAt[t] = j;
      out.r1[t] = -1;
      out.r2[t] = -1;
      out.adv[t] = e - slD > 0 ? e - slD : 0;
      s.phase[t] = 0;
      return;
    }
    if (e - a > 0) out.adv[t] = e - a;
    s.from[t] = j + 1;
    s.pending[s.pendingCount++] = t;
    return;
  }
  s.from[t] = j;
  // A market entry sees its whole entry candle.
  if (p.low[j] <= s.below[t] || p.high[j] >= s.above[t]) fire(s, p, t, j, input, out);
  else insert(s, t);
}

let sweepState: Sweep | null = null;

/** Every trade walked in one pass over the candles. */
export function sweepWalk(p: PriceBlocks, input: SweepInput, m: number, out: SweepOutput): void {
  const { high, low } = p;
  const n = high.length | 0;
  let lowest = Infinity;
  let highest = -Infinity;
  const supers = p.supers;
  for (let i = 0; i < supers.length; i += 2) {
    if (supers[i] > highest) highest = supers[i];
    if (supers[i + 1] < lowest) lowest = supers[i + 1];
  }
  const s = sweepState && sweepState.capacity >= m && sweepState.base === lowest && sweepState.highest === highest ? sweepState : (sweepState = new Sweep(m, lowest, highest));
  s.topB = -1;
  s.botA = 1 << 30;
  s.maxBelow = -Infinity;
  s.minAbove = Infinity;
  s.belowQ.reset();
  s.aboveQ.reset();
  let next = 0;
  for (let k0 = 0; k0 < n; k0 += 4096) next = sweepRange(s, p, input, m, out, next, k0, Math.min(n, k0 + 4096));
  // Still walking at the end (neither exit reached, or levels no candle reaches): open, with the
  // extremes passed since their pending query started.
  for (let t = 0; t < m; t++) {
    if (s.phase[t] === 0) continue;
    unlink(s, t);
    s.phase[t] = 0;
    const dir = input.side[t];
    const buy = dir > 0;
    const e = dir * input.fill[t];
    rangeExtremes(p, s.from[t], n);
    const passedF = buy ? rq[0] : -rq[1];
    const passedA = buy ? rq[1] : -rq[0];
    if (passedF - e > out.fav[t]) out.fav[t] = passedF - e;
    if (e - passedA > out.adv[t]) out.adv[t] = e - passedA;
  }
}

function sweepRange(s: Sweep, p: PriceBlocks, input: SweepInput, m: number, out: SweepOutput, next: number, k0: number, k1: number): number {
  const { high, low } = p;
  const entry = input.entryIndex;
  const base = s.base;
  const inv = s.inv;
  const top = s.buckets - 1;
  for (let k = k0; k < k1; k++) {
    // Levels reached by this candle's low (below queue) and high (above queue): an exact gate
    // first, then the buckets from the highest (lowest) pending one down (up) to the candle's.
    if (low[k] <= s.maxBelow) {
      const l = low[k];
      let lk = Math.floor((l - base) * inv);
      lk = lk < 0 ? 0 : lk > top ? top : lk;
      let b = s.topB;
      while (b >= lk) {
        let t = s.belowQ.head[b];
        while (t >= 0) {
          const nt = s.belowQ.next[t];
          if (b > lk || s.below[t] >= l) fire(s, p, t, k, input, out);
          t = nt;
        }
        b = b > 0 ? highestAtOrBelow(s.belowQ.bits, b - 1) : -1;
      }
      s.topB = s.belowQ.head[lk] >= 0 ? lk : lk > 0 ? highestAtOrBelow(s.belowQ.bits, lk - 1) : -1;
      let best = -Infinity;
      if (s.topB >= 0) for (let t = s.belowQ.head[s.topB]; t >= 0; t = s.belowQ.next[t]) if (s.below[t] > best) best = s.below[t];
      s.maxBelow = best;
    }
    if (high[k] >= s.minAbove) {
      const h = high[k];
      let hk = Math.floor((h - base) * inv);
      hk = hk < 0 ? 0 : hk > top ? top : hk;
      let b = s.botA;
      while (b <= hk) {
        let t = s.aboveQ.head[b];
        while (t >= 0) {
          const nt = s.aboveQ.next[t];
          if (b < hk || s.above[t] <= h) fire(s, p, t, k, input, out);
          t = nt;
        }
        b = b < top ? lowestAtOrAbove(s.aboveQ.bits, b + 1) : 1 << 30;
      }
      s.botA = s.aboveQ.head[hk] >= 0 ? hk : hk < top ? lowestAtOrAbove(s.aboveQ.bits, hk + 1) : 1 << 30;
      let best = Infinity;
      if (s.botA < 1 << 30) for (let t = s.aboveQ.head[s.botA]; t >= 0; t = s.aboveQ.next[t]) if (s.above[t] < best) best = s.above[t];
      s.minAbove = best;
    }
    // Queries started by this candle's fires begin at the next candle.
    while (next < m && entry[next] === k) open(s, p, next++, k, input, out);
    for (let i = 0; i < s.pendingCount; i++) insert(s, s.pending[i]);
    s.pendingCount = 0;
  }
  return next;
}
