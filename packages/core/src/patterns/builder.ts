import type { PatternKind, Setups } from './types.js';

/** Growable columns a builder writes into; one set is kept between runs (see `SetupBuilder`). */
interface SetupColumns {
  capacity: number;
  side: Int8Array;
  top: Float64Array;
  bottom: Float64Array;
  stop: Float64Array;
  formedAt: Int32Array;
  confirmedAt: Int32Array;
}

function columns(capacity: number): SetupColumns {
  return {
    capacity,
    side: new Int8Array(capacity),
    top: new Float64Array(capacity),
    bottom: new Float64Array(capacity),
    stop: new Float64Array(capacity),
    formedAt: new Int32Array(capacity),
    confirmedAt: new Int32Array(capacity),
  };
}

// Fresh memory costs a page fault per 4 KiB on first touch, which on a 1M-candle run weighed
// as much as the detection itself: the working columns are reused from one run to the next and
// only the exact-size result is allocated. A builder that is never finished just leaves the
// spare set to the garbage collector.
let spare: SetupColumns | null = null;
// The last builder, kept so that one instance is always alive: V8 holds an instance's map only
// weakly, and when a full GC finds no instance, the map dies and every kernel optimised for it
// is deoptimised ("weak objects"), to be recompiled in the next run.
let last: SetupBuilder | null = null;

/** Append-only typed-array storage for detectors: doubles its capacity, trims at the end. */
export class SetupBuilder {
  count = 0;
  private cols: SetupColumns;
  side: Int8Array;
  top: Float64Array;
  bottom: Float64Array;
  stop: Float64Array;
  formedAt: Int32Array;
  confirmedAt: Int32Array;

  constructor(
    readonly kind: PatternKind,
    expected = 64,
  ) {
    const want = Math.max(16, expected | 0);
    let cols = spare;
    spare = null;
    if (cols === null || cols.capacity < want) cols = columns(want);
    this.cols = cols;
    this.side = cols.side;
    this.top = cols.top;
    this.bottom = cols.bottom;
    this.stop = cols.stop;
    this.formedAt = cols.formedAt;
    this.confirmedAt = cols.confirmedAt;
  }

  push(side: number, top: number, bottom: number, stop: number, formedAt: number, confirmedAt: number): void {
    if (this.count === this.cols.capacity) this.grow();
    const i = this.count++;
    this.side[i] = side;
    this.top[i] = top;
    this.bottom[i] = bottom;
    this.stop[i] = stop;
    this.formedAt[i] = formedAt;
    this.confirmedAt[i] = confirmedAt;
  }

  /**
   * Room for `extra` more setups, so that a kernel may write the columns directly (from
   * `count`, then advance `count`) without a capacity test per setup.
   */
  reserve(extra: number): void {
    while (this.count + extra > this.cols.capacity) this.grow();
  }

  private grow(): void {
    const n = this.count;
    const cols = columns(this.cols.capacity * 2);
    cols.side.set(this.side.subarray(0, n));
    cols.top.set(this.top.subarray(0, n));
    cols.bottom.set(this.bottom.subarray(0, n));
    cols.stop.set(this.stop.subarray(0, n));
    cols.formedAt.set(this.formedAt.subarray(0, n));
    cols.confirmedAt.set(this.confirmedAt.subarray(0, n));
    this.cols = cols;
    this.side = cols.side;
    this.top = cols.top;
    this.bottom = cols.bottom;
    this.stop = cols.stop;
    this.formedAt = cols.formedAt;
    this.confirmedAt = cols.confirmedAt;
  }

  finish(): Setups {
    const n = this.count;
    const out: Setups = {
      kind: this.kind,
      count: n,
      side: this.side.slice(0, n),
      top: this.top.slice(0, n),
      bottom: this.bottom.slice(0, n),
      stop: this.stop.slice(0, n),
      formedAt: this.formedAt.slice(0, n),
      confirmedAt: this.confirmedAt.slice(0, n),
    };
    if (spare === null || spare.capacity < this.cols.capacity) spare = this.cols;
    last = this;
    return out;
  }
}

// An empty result kept alive for the same reason as `last`: the map of Setups objects.
export const NO_SETUPS: Setups = new SetupBuilder('custom', 16).finish();

/**
 * A zone narrower than `minSize` (price units; 0 = no minimum), with a relative tolerance of 1e-9
 * so that a zone of exactly `min_pips` is not lost to float rounding.
 */
export function tooSmall(top: number, bottom: number, minSize: number): boolean {
  return minSize > 0 && top - bottom < minSize - 1e-9 * Math.abs(top);
}

/**
 * `tooSmall` as 0 or 1 without a branch, for the kernels that advance their count by it; `sized`
 * is `+(minSize > 0)`, computed once per chunk.
 */
export function tooSmallBit(top: number, bottom: number, minSize: number, sized: number): number {
  return sized & +(top - bottom < minSize - 1e-9 * Math.abs(top));
}
