import { checkPeriod, firstDefined } from './period.js';

/**
 * Exponential moving average, k = 2 / (period + 1), seeded with the simple average of the first
 * `period` values (docs/architecture.md §2): NaN before that index, the SMA at it, then
 * ema[i] = ema[i-1] + k (v[i] - ema[i-1]). Leading NaN values are skipped (the seed starts at the
 * first defined value); a NaN later on propagates.
 */
export function ema(values: Float64Array, period: number): Float64Array {
  checkPeriod(period);
  const n = values.length | 0;
  const out = new Float64Array(n).fill(NaN);
  const start = firstDefined(values);
  const seedAt = start + period - 1;
  if (seedAt >= n) return out;
  let sum = 0;
  for (let i = start; i <= seedAt; i++) sum += values[i];
  let previous = sum / period;
  out[seedAt] = previous;
  const k = 2 / (period + 1);
  for (let i = seedAt + 1; i < n; i++) {
    previous = (values[i] - previous) * k + previous;
    out[i] = previous;
  }
  return out;
}
