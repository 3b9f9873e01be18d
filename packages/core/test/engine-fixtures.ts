// Hand-built candle sequences for the engine tests (not a test file itself).
import { candlesFromColumns, type Candles } from '@bt/core';

/** [open, high, low, close] per candle. */
export type Bar = readonly [number, number, number, number];

/** Monday 2024-01-01 00:00 UTC. */
export const T0 = Date.UTC(2024, 0, 1);
export const HOUR = 3_600_000;

export function bars(rows: readonly Bar[], options: { start?: number; stepMs?: number; extra?: Record<string, number[]> } = {}): Candles {
  const n = rows.length;
  const start = options.start ?? T0;
  const step = options.stepMs ?? HOUR;
  for (const [i, [o, h, l, c]] of rows.entries()) {
    if (h < Math.max(o, c) || l > Math.min(o, c)) throw new Error(`bad test bar ${i}: ${rows[i]}`);
  }
  const extra: Record<string, Float64Array> = {};
  for (const [k, v] of Object.entries(options.extra ?? {})) extra[k] = Float64Array.from(v);
  return candlesFromColumns({
    time: Float64Array.from(rows, (_, i) => start + i * step),
    open: Float64Array.from(rows, (r) => r[0]),
    high: Float64Array.from(rows, (r) => r[1]),
    low: Float64Array.from(rows, (r) => r[2]),
    close: Float64Array.from(rows, (r) => r[3]),
    volume: new Float64Array(n),
    extra,
  });
}

/** Mirror image around `axis`: a bullish sequence becomes the same bearish one (x -> axis - x). */
export const MIRROR_AXIS = 200;
export function mirror(rows: readonly Bar[], axis = MIRROR_AXIS): Bar[] {
  return rows.map(([o, h, l, c]) => [axis - o, axis - l, axis - h, axis - c] as const);
}
export const m = (x: number, axis = MIRROR_AXIS) => axis - x;

/** A quiet filler candle around `p` that touches nothing far away. */
export const flat = (p: number): Bar => [p, p + 0.2, p - 0.2, p];
