// Deterministic synthetic candles for benchmarks: a seeded random walk with EURUSD-like M1
// volatility (about 1.2 pips per minute), so pattern and trade counts resemble real data.
import { candlesFromColumns, type Candles } from '@bt/core';
import { seededRandom as prng } from '@bt/core/candles';

export function syntheticCandles(n: number, options: { seed?: number; stepMs?: number; start?: number; sigma?: number; price?: number } = {}): Candles {
  const rand = prng(options.seed ?? 42);
  const gauss = () => {
    const u = rand() || 1e-12;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const step = options.stepMs ?? 60_000;
  const start = options.start ?? Date.UTC(2024, 0, 1);
  const sigma = options.sigma ?? 0.00012;
  const time = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let price = options.price ?? 1.1;
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  for (let i = 0; i < n; i++) {
    time[i] = start + i * step;
    const o = round(price);
    const c = round(o + gauss() * sigma);
    open[i] = o;
    close[i] = c;
    high[i] = round(Math.max(o, c) + Math.abs(gauss()) * sigma * 0.5);
    low[i] = round(Math.min(o, c) - Math.abs(gauss()) * sigma * 0.5);
    volume[i] = 1 + Math.floor(rand() * 100);
    price = c;
  }
  return candlesFromColumns({ time, open, high, low, close, volume }, { symbol: 'EURUSD', timeframe: step === 60_000 ? 'M1' : step === 300_000 ? 'M5' : undefined });
}
