// One synthetic forex year of M5 candles (52 weeks, Monday to Friday: 74,880 candles), the
// fixture of the "full run with workbook" target (engine.bench.ts and stats-report.bench.ts).
import { candlesFromColumns, type Candles } from '@bt/core';
import { syntheticCandles } from '../synthetic.js';

export function forexYearM5(): Candles {
  const all = syntheticCandles(52 * 7 * 288, { seed: 7, stepMs: 300_000, start: Date.UTC(2024, 0, 1), sigma: 0.00027 });
  const keep: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const weekday = (Math.floor(all.time[i] / 86_400_000) + 3) % 7;
    if (weekday < 5) keep.push(i);
  }
  const pick = (a: Float64Array) => Float64Array.from(keep, (i) => a[i]);
  // The weekend leaves a time gap (and a price gap), as in real data.
  return candlesFromColumns(
    { time: pick(all.time), open: pick(all.open), high: pick(all.high), low: pick(all.low), close: pick(all.close), volume: pick(all.volume) },
    { symbol: 'EURUSD', timeframe: 'M5' },
  );
}
