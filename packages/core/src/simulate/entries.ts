import type { PriceSeries, Setups } from '../patterns/types.js';
import type { FilterMasks } from '../strategies/filters.js';

/** Pullback entry rules (DESIGN §2), already validated and defaulted. */
export interface PullbackRules {
  /** A zone confirmed at candle d can fill at j only when `j - d >= minWait` (and always j > d). */
  readonly minWait: number;
  /** The zone expires when `j - d > maxWait`; Infinity: never by age. */
  readonly maxWait: number;
  /** Order depth as a fraction of the zone height; undefined: the order rests at the near edge. */
  readonly overlapRatio?: number;
  /** Touches allowed (filled or refused); the next one drops the zone. Infinity: no limit. */
  readonly maxTouch: number;
  readonly allowMultiple: boolean;
}

/** Entries as parallel typed arrays, sorted by entry candle then by setup. */
export interface Entries {
  readonly count: number;
  /** Index into the setups the entry came from. */
  readonly setup: Int32Array;
  /** Candle in which the order filled. */
  readonly index: Int32Array;
  readonly side: Int8Array;
  /** Where SL/TP are measured from: the resting price, or the entry open for signal families. */
  readonly orderPrice: Float64Array;
  /** Actual fill: the order price, or a better open that gapped through it. */
  readonly entryPrice: Float64Array;
  /** 1 for a resting-order fill (on its candle only SL can count), 0 for an entry at the open. */
  readonly resting: Uint8Array;
}

class EntryBuilder {
  count = 0;
  private cap: number;
  setup: Int32Array;
  index: Int32Array;
  side: Int8Array;
  orderPrice: Float64Array;
  entryPrice: Float64Array;

  constructor(expected: number) {
    this.cap = Math.max(16, expected);
    this.setup = new Int32Array(this.cap);
    this.index = new Int32Array(this.cap);
    this.side = new Int8Array(this.cap);
    this.orderPrice = new Float64Array(this.cap);
    this.entryPrice = new Float64Array(this.cap);
  }

  private grow(): void {
    this.cap *= 2;
    const setup = new Int32Array(this.cap);
    setup.set(this.setup);
    this.setup = setup;
    const index = new Int32Array(this.cap);
    index.set(this.index);
    this.index = index;
    const side = new Int8Array(this.cap);
    side.set(this.side);
    this.side = side;
    const orderPrice = new Float64Array(this.cap);
    orderPrice.set(this.orderPrice);
    this.orderPrice = orderPrice;
    const entryPrice = new Float64Array(this.cap);
    entryPrice.set(this.entryPrice);
    this.entryPrice = entryPrice;
  }

  push(setup: number, index: number, side: number, orderPrice: number, entryPrice: number): void {
    if (this.count === this.cap) this.grow();
    const k = this.count++;
    this.setup[k] = setup;
    this.index[k] = index;
    this.side[k] = side;
    this.orderPrice[k] = orderPrice;
    this.entryPrice[k] = entryPrice;
  }

  /**
   * Trims and orders by (entry candle, setup). Entries are pushed setup by setup and a zone lives
   * at most max_wait_candles, so they are nearly sorted: a stable insertion sort on the entry
   * candle is linear in practice; past a budget of moves it falls back to a counting sort.
   */
  finish(resting: boolean, candles: number): Entries {
    const n = this.count;
    const order = stableOrder(this.index, n, candles);
    // One gather per element type: a generic one would make every element access megamorphic.
    const i32 = (a: Int32Array): Int32Array => {
      if (!order) return a.slice(0, n);
      const b = new Int32Array(n);
      for (let k = 0; k < n; k++) b[k] = a[order[k]];
      return b;
    };
    const f64 = (a: Float64Array): Float64Array => {
      if (!order) return a.slice(0, n);
      const b = new Float64Array(n);
      for (let k = 0; k < n; k++) b[k] = a[order[k]];
      return b;
    };
    const i8 = (a: Int8Array): Int8Array => {
      if (!order) return a.slice(0, n);
      const b = new Int8Array(n);
      for (let k = 0; k < n; k++) b[k] = a[order[k]];
      return b;
    };
    return {
      count: n,
      setup: i32(this.setup),
      index: i32(this.index),
      side: i8(this.side),
      orderPrice: f64(this.orderPrice),
      entryPrice: f64(this.entryPrice),
      resting: new Uint8Array(n).fill(resting ? 1 : 0),
    };
  }
}

/** Stable permutation sorting `keys[0..n)` ascending; null when already sorted. */
export function stableOrder(keys: Int32Array, n: number, range: number): Int32Array | null {
  let k = 1;
  while (k < n && keys[k] >= keys[k - 1]) k++;
  if (k >= n) return null;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let budget = 16 * n;
  for (; k < n; k++) {
    const item = order[k];
    const key = keys[item];
    let i = k - 1;
    while (i >= 0 && keys[order[i]] > key) {
      order[i + 1] = order[i];
      i--;
    }
    order[i + 1] = item;
    budget -= k - 1 - i;
    if (budget < 0) return countingOrder(keys, n, range);
  }
  return order;
}

/** Stable permutation sorting `keys[0..n)` (integers in 0..range-1) ascending. */
function countingOrder(keys: Int32Array, n: number, range: number): Int32Array {
  const start = new Int32Array(range + 1);
  for (let k = 0; k < n; k++) start[keys[k] + 1]++;
  for (let i = 0; i < range; i++) start[i + 1] += start[i];
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[start[keys[k]]++] = k;
  return order;
}

/**
 * Signal families: entry at the open of the candle after the signal, when the filters pass on
 * the signal candle. `startIndex`: entries before it are warm-up and are not emitted.
 */
export function signalEntries(series: PriceSeries, setups: Setups, masks: FilterMasks | null, startIndex = 0): Entries {
  const { length: n, open } = series;
  const out = new EntryBuilder(setups.count);
  for (let z = 0; z < setups.count; z++) {
    const s = setups.confirmedAt[z];
    const j = s + 1;
    if (j >= n || j < startIndex) continue;
    const side = setups.side[z];
    if (masks && (side > 0 ? masks.buy[s] : masks.sell[s]) === 0) continue;
    out.push(z, j, side, open[j], open[j]);
  }
  return out.finish(false, n);
}

/**
 * Pullback families: each zone rests an order and lives on its own (several can be live at once).
 * Per candle j after the zone's confirmation d, in this order:
 *  1. expiry: `j - d > maxWait` ends the zone;
 *  2. when `j - d >= minWait`, a touch (`low[j] <= top` for a buy) counts towards `maxTouch`
 *     (a touch past it drops the zone); the order fills if the filters pass on j-1 and the low
 *     reaches the resting price `top - r*height` (`top` without r); a candle that opens beyond it
 *     fills at its open; without `allowMultiple` the zone is then done;
 *  3. invalidation: a close beyond the far edge (`close[j] < bottom` for a buy) ends the zone.
 * Fills before `startIndex` consume zones like any other but are not emitted (warm-up).
 * `priceScale` rounds resting prices inside zones (see `priceRounding`); 0 leaves them as computed.
 */
export function pullbackEntries(
  series: PriceSeries,
  setups: Setups,
  masks: FilterMasks | null,
  rules: PullbackRules,
  startIndex = 0,
  priceScale = 0,
): Entries {
  const { length: n, open, high, low, close } = series;
  const { minWait, maxWait, overlapRatio, maxTouch, allowMultiple } = rules;
  const ratio = overlapRatio ?? 0;
  const buyMask = masks?.buy;
  const sellMask = masks?.sell;
  const out = new EntryBuilder(setups.count >> 1);
  const firstOffset = Math.max(1, minWait);
  for (let z = 0; z < setups.count; z++) {
    const d = setups.confirmedAt[z];
    const top = setups.top[z];
    const bottom = setups.bottom[z];
    const depth = ratio * (top - bottom);
    const last = Math.min(n - 1, d + maxWait);
    let touches = 0;
    if (setups.side[z] > 0) {
      const price = depth === 0 || priceScale === 0 ? top - depth : Math.round((top - depth) * priceScale) / priceScale;
      // Candles inside the waiting period can only invalidate the zone.
      let j = d + 1;
      for (; j < d + firstOffset && j <= last; j++) if (close[j] < bottom) break;
      if (j < d + firstOffset) continue;
      // A close below the zone implies a touch, so candles above the zone can be passed quickly.
      for (; j <= last; j++) {
        if (low[j] > top) continue;
        if (++touches > maxTouch) break;
        if (low[j] <= price && (buyMask === undefined || buyMask[j - 1] === 1)) {
          if (j >= startIndex) out.push(z, j, 1, price, open[j] < price ? open[j] : price);
          if (!allowMultiple) break;
        }
        if (close[j] < bottom) break;
      }
    } else {
      const price = depth === 0 || priceScale === 0 ? bottom + depth : Math.round((bottom + depth) * priceScale) / priceScale;
      let j = d + 1;
      for (; j < d + firstOffset && j <= last; j++) if (close[j] > top) break;
      if (j < d + firstOffset) continue;
      for (; j <= last; j++) {
        if (high[j] < bottom) continue;
        if (++touches > maxTouch) break;
        if (high[j] >= price && (sellMask === undefined || sellMask[j - 1] === 1)) {
          if (j >= startIndex) out.push(z, j, -1, price, open[j] > price ? open[j] : price);
          if (!allowMultiple) break;
        }
        if (close[j] > top) break;
      }
    }
  }
  return out.finish(true, n);
}
