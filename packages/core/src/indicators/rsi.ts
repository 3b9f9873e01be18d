import { checkPeriod, firstDefined } from './period.js';

/** The product's RSI period (docs/architecture.md §2: RSI is Wilder's, 14). */
export const DEFAULT_RSI_PERIOD = 14;

/**
 * Relative strength index with Wilder's smoothing: the first average gain and loss are the simple
 * means of the first `period` changes, then avg = (avg (period - 1) + change) / period. Defined from
 * index `period` on (NaN before). RSI = 100 - 100 / (1 + avgGain / avgLoss); with no loss it is
 * 100, and with neither gain nor loss (a flat market) 50, the neutral value, so that neither the
 * buy nor the sell side of the filter passes on a market that did not move.
 */
export function rsi(values: Float64Array, period = DEFAULT_RSI_PERIOD): Float64Array {
  checkPeriod(period);
  const n = values.length | 0;
  const out = new Float64Array(n).fill(NaN);
  const start = firstDefined(values);
  if (start + period >= n) return out;
  let gain = 0;
  let loss = 0;
  for (let i = start + 1; i <= start + period; i++) {
    const change = values[i] - values[i - 1];
    gain += Math.max(change, 0);
    loss += Math.max(-change, 0);
  }
  gain /= period;
  loss /= period;
  out[start + period] = rsiValue(gain, loss);
  const keep = period - 1;
  for (let i = start + period + 1; i < n; i++) {
    const change = values[i] - values[i - 1];
    // Math.max lets a NaN change propagate instead of counting as no change.
    gain = (gain * keep + Math.max(change, 0)) / period;
    loss = (loss * keep + Math.max(-change, 0)) / period;
    out[i] = rsiValue(gain, loss);
  }
  return out;
}

function rsiValue(gain: number, loss: number): number {
  if (loss === 0) return gain === 0 ? 50 : 100;
  return 100 - 100 / (1 + gain / loss);
}
