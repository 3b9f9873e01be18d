// The order of entries (docs/engine.md §11): by entry candle, stable, for nearly sorted input.
import { CHUNK } from '../patterns/candidates.js';

// One gather per element type: a generic one would make every element access megamorphic.
// Each works by chunks (see CHUNK).
export function gatherI32(a: Int32Array, order: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  for (let k = 0; k < n; k += CHUNK) gatherI32Range(a, order, b, k, Math.min(n, k + CHUNK));
  return b;
}

function gatherI32Range(a: Int32Array, order: Int32Array, b: Int32Array, from: number, to: number): void {
  for (let k = from; k < to; k++) b[k] = a[order[k]];
}

export function gatherI8(a: Int8Array, order: Int32Array, n: number): Int8Array {
  const b = new Int8Array(n);
  for (let k = 0; k < n; k += CHUNK) gatherI8Range(a, order, b, k, Math.min(n, k + CHUNK));
  return b;
}

function gatherI8Range(a: Int8Array, order: Int32Array, b: Int8Array, from: number, to: number): void {
  for (let k = from; k < to; k++) b[k] = a[order[k]];
}

export function gatherF64(a: Float64Array, order: Int32Array, n: number): Float64Array {
  const b = new Float64Array(n);
  for (let k = 0; k < n; k += CHUNK) gatherF64Range(a, order, b, k, Math.min(n, k + CHUNK));
  return b;
}

function gatherF64Range(a: Float64Array, order: Int32Array, b: Float64Array, from: number, to: number): void {
  for (let k = from; k < to; k++) b[k] = a[order[k]];
}

/** Stable permutation sorting `keys[0..n)` ascending; null when already sorted. */
export function stableOrder(keys: Int32Array, n: number, range: number, scratch?: Int32Array): Int32Array | null {
  let k = 1;
  while (k < n && keys[k] >= keys[k - 1]) k++;
  if (k >= n) return null;
  const order = scratch && scratch.length >= n ? scratch : new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let budget = 16 * n;
  for (; k < n; k += CHUNK) {
    budget = insertionRange(keys, order, k, Math.min(n, k + CHUNK), budget);
    if (budget < 0) return countingOrder(keys, n, range);
  }
  return order;
}

/** Insertion sort steps for items [from, to) of `order`; returns the budget of moves left (< 0: give up). */
function insertionRange(keys: Int32Array, order: Int32Array, from: number, to: number, budget: number): number {
  for (let k = from; k < to; k++) {
    const item = order[k];
    const key = keys[item];
    let i = k - 1;
    while (i >= 0 && keys[order[i]] > key) {
      order[i + 1] = order[i];
      i--;
    }
    order[i + 1] = item;
    budget -= k - 1 - i;
    if (budget < 0) return budget;
  }
  return budget;
}

/** Insertion sort steps of the entry columns (key: `index`) for items [from, to); returns the budget of moves left (< 0: give up). */
export function insertionColumns(
  setup: Int32Array,
  index: Int32Array,
  side: Int8Array,
  orderPrice: Float64Array,
  entryPrice: Float64Array,
  from: number,
  to: number,
  budget: number,
): number {
  for (let k = from; k < to; k++) {
    const key = index[k];
    if (index[k - 1] <= key) continue;
    const a = setup[k];
    const b = side[k];
    const c = orderPrice[k];
    const d = entryPrice[k];
    let i = k - 1;
    while (i >= 0 && index[i] > key) {
      setup[i + 1] = setup[i];
      index[i + 1] = index[i];
      side[i + 1] = side[i];
      orderPrice[i + 1] = orderPrice[i];
      entryPrice[i + 1] = entryPrice[i];
      i--;
    }
    setup[i + 1] = a;
    index[i + 1] = key;
    side[i + 1] = b;
    orderPrice[i + 1] = c;
    entryPrice[i + 1] = d;
    budget -= k - 1 - i;
    if (budget < 0) return budget;
  }
  return budget;
}

/** Stable permutation sorting `keys[0..n)` (integers in 0..range-1) ascending. */
export function countingOrder(keys: Int32Array, n: number, range: number): Int32Array {
  const start = new Int32Array(range + 1);
  for (let k = 0; k < n; k++) start[keys[k] + 1]++;
  for (let i = 0; i < range; i++) start[i + 1] += start[i];
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[start[keys[k]]++] = k;
  return order;
}
