import { CHUNK } from '../patterns/candidates.js';
import { countingOrder, gatherF64, gatherI32, gatherI8, insertionColumns } from './entry-order.js';
import type { PriceSeries, Setups } from '../patterns/types.js';
import { buyPasses, maskGate, sellPasses, type FilterGate, type FilterMasks } from '../strategies/filters.js';

/** Pullback entry rules (docs/architecture.md §2), already validated and defaulted. */
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

interface EntryColumns {
  cap: number;
  setup: Int32Array;
  index: Int32Array;
  side: Int8Array;
  orderPrice: Float64Array;
  entryPrice: Float64Array;
}

function entryColumns(cap: number): EntryColumns {
  return {
    cap,
    setup: new Int32Array(cap),
    index: new Int32Array(cap),
    side: new Int8Array(cap),
    orderPrice: new Float64Array(cap),
    entryPrice: new Float64Array(cap),
  };
}

// Working columns reused between runs (fresh memory faults in page by page); only the
// exact-size, ordered result is allocated. See SetupBuilder.
let spare: EntryColumns | null = null;
// One instance always alive, so that its map survives full GCs (see SetupBuilder).
let last: EntryBuilder | null = null;

class EntryBuilder {
  count = 0;
  private cols: EntryColumns;
  setup: Int32Array;
  index: Int32Array;
  side: Int8Array;
  orderPrice: Float64Array;
  entryPrice: Float64Array;

  constructor(expected: number) {
    const want = Math.max(16, expected | 0);
    let cols = spare;
    spare = null;
    if (cols === null || cols.cap < want) cols = entryColumns(want);
    this.cols = cols;
    this.setup = cols.setup;
    this.index = cols.index;
    this.side = cols.side;
    this.orderPrice = cols.orderPrice;
    this.entryPrice = cols.entryPrice;
  }

  private grow(): void {
    const n = this.count;
    const cols = entryColumns(this.cols.cap * 2);
    cols.setup.set(this.setup.subarray(0, n));
    cols.index.set(this.index.subarray(0, n));
    cols.side.set(this.side.subarray(0, n));
    cols.orderPrice.set(this.orderPrice.subarray(0, n));
    cols.entryPrice.set(this.entryPrice.subarray(0, n));
    this.cols = cols;
    this.setup = cols.setup;
    this.index = cols.index;
    this.side = cols.side;
    this.orderPrice = cols.orderPrice;
    this.entryPrice = cols.entryPrice;
  }

  push(setup: number, index: number, side: number, orderPrice: number, entryPrice: number): void {
    if (this.count === this.cols.cap) this.grow();
    const k = this.count++;
    this.setup[k] = setup;
    this.index[k] = index;
    this.side[k] = side;
    this.orderPrice[k] = orderPrice;
    this.entryPrice[k] = entryPrice;
  }

  /** Stable insertion sort of the columns on the entry candle; false past its budget of moves (columns left as a permutation). */
  private sortInPlace(): boolean {
    const n = this.count;
    const index = this.index;
    let k = 1;
    while (k < n && index[k] >= index[k - 1]) k++;
    let budget = 16 * n;
    for (; k < n; k += CHUNK) {
      budget = insertionColumns(this.setup, this.index, this.side, this.orderPrice, this.entryPrice, k, Math.min(n, k + CHUNK), budget);
      if (budget < 0) return false;
    }
    return true;
  }

  /**
   * Trims and orders by (entry candle, setup). Entries are pushed setup by setup and a zone lives
   * at most max_wait_candles, so they are nearly sorted: a stable insertion sort of the columns
   * on the entry candle is linear in practice; past a budget of moves it falls back to a
   * counting sort.
   */
  finish(resting: boolean, candles: number): Entries {
    const n = this.count;
    // The columns themselves are sorted in place (then copied, a plain copy); only past the
    // budget does the counting sort's permutation gather them.
    let order: Int32Array | null = null;
    if (!this.sortInPlace()) order = countingOrder(this.index, n, candles);
    const out: Entries = {
      count: n,
      setup: order ? gatherI32(this.setup, order, n) : this.setup.slice(0, n),
      index: order ? gatherI32(this.index, order, n) : this.index.slice(0, n),
      side: order ? gatherI8(this.side, order, n) : this.side.slice(0, n),
      orderPrice: order ? gatherF64(this.orderPrice, order, n) : this.orderPrice.slice(0, n),
      entryPrice: order ? gatherF64(this.entryPrice, order, n) : this.entryPrice.slice(0, n),
      resting: new Uint8Array(n).fill(resting ? 1 : 0),
    };
    if (spare === null || spare.cap < this.cols.cap) spare = this.cols;
    last = this;
    return out;
  }
}

// An empty result kept alive for the same reason as `last`: the map of Entries objects.
export const NO_ENTRIES: Entries = new EntryBuilder(16).finish(true, 0);

/** The gate of masks or of a gate; null: no filter. */
function toGate(series: PriceSeries, filters: FilterMasks | FilterGate | null): FilterGate | null {
  if (filters === null) return null;
  return 'buy' in filters ? maskGate(series, filters) : filters;
}

/** How orders meet the market once costs apply (docs/engine.md §13): the ask series, and slippage on market entries. */
export interface EntryQuotes {
  /** Ask prices (bid + spread); the bid series itself without spread. */
  readonly ask: PriceSeries;
  /** Slippage in price units against a market entry (signal families); 0: none. */
  readonly slippage: number;
  /** The level grid (`priceRounding`) a slipped fill is rounded to. */
  readonly priceScale: number;
}

/**
 * Signal families: entry at the open of the candle after the signal, when the filters pass on
 * the signal candle. `startIndex`: entries before it are warm-up and are not emitted.
 * `filters`: masks over every candle, or a gate reading the indicator columns (filterGate).
 * With `quotes`, a buy's order price is the ask open and a sell's the bid open, and the fill is
 * that price moved against the trade by the slippage.
 */
export function signalEntries(series: PriceSeries, setups: Setups, filters: FilterMasks | FilterGate | null, startIndex = 0, quotes?: EntryQuotes): Entries {
  const gate = toGate(series, filters);
  const out = new EntryBuilder(setups.count);
  const askOpen = quotes ? quotes.ask.open : series.open;
  const slip = quotes ? quotes.slippage : 0;
  const scale = quotes ? quotes.priceScale : 0;
  for (let z = 0; z < setups.count; z += CHUNK) signalRange(out, series, askOpen, slip, scale, setups, gate, startIndex, z, Math.min(setups.count, z + CHUNK));
  return out.finish(false, series.length);
}

/** signalEntries for setups [z0, z1) (a chunk, see CHUNK). */
function signalRange(out: EntryBuilder, series: PriceSeries, askOpen: Float64Array, slip: number, scale: number, setups: Setups, gate: FilterGate | null, startIndex: number, z0: number, z1: number): void {
  const { length: n, open } = series;
  const { confirmedAt, side: sides } = setups;
  for (let z = z0; z < z1; z++) {
    const s = confirmedAt[z];
    const j = s + 1;
    if (j >= n || j < startIndex) continue;
    const side = sides[z];
    if (gate !== null && !(side > 0 ? buyPasses(gate, s) : sellPasses(gate, s))) continue;
    const price = side > 0 ? askOpen[j] : open[j];
    out.push(z, j, side, price, slip === 0 ? price : Math.round((price + side * slip) * scale) / scale);
  }
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
 * `filters`: masks over every candle, or a gate reading the indicator columns (filterGate).
 * `ask`: ask prices (bid + spread) a buy order fills on; touches and invalidation stay on the
 * candles (bid), a sell fills on the bid (docs/engine.md §13).
 */
export function pullbackEntries(
  series: PriceSeries,
  setups: Setups,
  filters: FilterMasks | FilterGate | null,
  rules: PullbackRules,
  startIndex = 0,
  priceScale = 0,
  ask: PriceSeries = series,
): Entries {
  const gate = toGate(series, filters);
  const out = new EntryBuilder(setups.count >> 1);
  for (let z = 0; z < setups.count; z += CHUNK) pullbackRange(out, series, ask, setups, gate, rules, startIndex, priceScale, z, Math.min(setups.count, z + CHUNK));
  return out.finish(true, series.length);
}

/** pullbackEntries for zones [z0, z1) (a chunk, see CHUNK). */
function pullbackRange(
  out: EntryBuilder,
  series: PriceSeries,
  ask: PriceSeries,
  setups: Setups,
  gate: FilterGate | null,
  rules: PullbackRules,
  startIndex: number,
  priceScale: number,
  z0: number,
  z1: number,
): void {
  const { length: n, open, high, low, close } = series;
  const { open: askOpen, low: askLow } = ask;
  const { minWait, maxWait, overlapRatio, maxTouch, allowMultiple } = rules;
  const ratio = overlapRatio ?? 0;
  const { confirmedAt, side: sides, top: tops, bottom: bottoms } = setups;
  const firstOffset = Math.max(1, minWait);
  for (let z = z0; z < z1; z++) {
    const d = confirmedAt[z];
    const top = tops[z];
    const bottom = bottoms[z];
    const depth = ratio * (top - bottom);
    const last = Math.min(n - 1, d + maxWait);
    let touches = 0;
    if (sides[z] > 0) {
      const price = depth === 0 || priceScale === 0 ? top - depth : Math.round((top - depth) * priceScale) / priceScale;
      // Candles inside the waiting period can only invalidate the zone.
      let j = d + 1;
      for (; j < d + firstOffset && j <= last; j++) if (close[j] < bottom) break;
      if (j < d + firstOffset) continue;
      // A close below the zone implies a touch, so candles above the zone can be passed quickly.
      for (; j <= last; j++) {
        if (low[j] > top) {
          // Past a candle above the zone, the next ones are tested four at a time (one branch
          // for four tests, docs/engine.md §11); the first not above is the touch.
          while (j + 3 <= last) {
            const above = +(low[j] > top) | (+(low[j + 1] > top) << 1) | (+(low[j + 2] > top) << 2) | (+(low[j + 3] > top) << 3);
            if (above !== 15) {
              j += 31 - Math.clz32(~above & (above + 1));
              break;
            }
            j += 4;
          }
          if (j > last || low[j] > top) continue;
        }
        if (++touches > maxTouch) break;
        if (askLow[j] <= price && (gate === null || buyPasses(gate, j - 1))) {
          if (j >= startIndex) out.push(z, j, 1, price, askOpen[j] < price ? askOpen[j] : price);
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
        if (high[j] < bottom) {
          while (j + 3 <= last) {
            const below = +(high[j] < bottom) | (+(high[j + 1] < bottom) << 1) | (+(high[j + 2] < bottom) << 2) | (+(high[j + 3] < bottom) << 3);
            if (below !== 15) {
              j += 31 - Math.clz32(~below & (below + 1));
              break;
            }
            j += 4;
          }
          if (j > last || high[j] < bottom) continue;
        }
        if (++touches > maxTouch) break;
        if (high[j] >= price && (gate === null || sellPasses(gate, j - 1))) {
          if (j >= startIndex) out.push(z, j, -1, price, open[j] > price ? open[j] : price);
          if (!allowMultiple) break;
        }
        if (close[j] > top) break;
      }
    }
  }
}
