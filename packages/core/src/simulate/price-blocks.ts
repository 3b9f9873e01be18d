// The groups the fast walk's search reads (fast-walk.ts explains the search), built once per
// price series and cached.

export const SHIFT = 4;
export const BLOCK = 1 << SHIFT;
export const SUPER_SHIFT = 8;
export const SUPER = 1 << SUPER_SHIFT;
export const PER_SUPER = SUPER / BLOCK;

/** Highs and lows with their group extremes (see fast-walk.ts). */
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

