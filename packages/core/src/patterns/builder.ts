import type { PatternKind, Setups } from './types.js';

/** Append-only typed-array storage for detectors: doubles its capacity, trims at the end. */
export class SetupBuilder {
  private capacity: number;
  count = 0;
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
    this.capacity = Math.max(16, expected | 0);
    this.side = new Int8Array(this.capacity);
    this.top = new Float64Array(this.capacity);
    this.bottom = new Float64Array(this.capacity);
    this.stop = new Float64Array(this.capacity);
    this.formedAt = new Int32Array(this.capacity);
    this.confirmedAt = new Int32Array(this.capacity);
  }

  push(side: number, top: number, bottom: number, stop: number, formedAt: number, confirmedAt: number): void {
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.side[i] = side;
    this.top[i] = top;
    this.bottom[i] = bottom;
    this.stop[i] = stop;
    this.formedAt[i] = formedAt;
    this.confirmedAt[i] = confirmedAt;
  }

  private grow(): void {
    this.capacity *= 2;
    const side = new Int8Array(this.capacity);
    side.set(this.side);
    this.side = side;
    this.top = grownF64(this.top, this.capacity);
    this.bottom = grownF64(this.bottom, this.capacity);
    this.stop = grownF64(this.stop, this.capacity);
    this.formedAt = grownI32(this.formedAt, this.capacity);
    this.confirmedAt = grownI32(this.confirmedAt, this.capacity);
  }

  finish(): Setups {
    const n = this.count;
    return {
      kind: this.kind,
      count: n,
      side: this.side.slice(0, n),
      top: this.top.slice(0, n),
      bottom: this.bottom.slice(0, n),
      stop: this.stop.slice(0, n),
      formedAt: this.formedAt.slice(0, n),
      confirmedAt: this.confirmedAt.slice(0, n),
    };
  }
}

function grownF64(a: Float64Array, capacity: number): Float64Array {
  const b = new Float64Array(capacity);
  b.set(a);
  return b;
}

function grownI32(a: Int32Array, capacity: number): Int32Array {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}

/** Tolerance for size comparisons, so a gap of exactly `min_pips` is not lost to float rounding. */
export function sizeTolerance(price: number): number {
  return 1e-9 * Math.abs(price);
}
