// The trading costs of the costs benchmarks (costs-montecarlo, costs-instructions): a spread by
// UTC hour (2.5 pips 00-06, 1.2 pips 07-20, 3 pips 21-23), 0.7 pip of commission, 0.5 pip of slippage.
import type { BacktestRequest } from '@bt/core';

export const BENCH_COSTS = { spreadByHour: Array.from({ length: 24 }, (_, h) => (h < 7 ? 2.5 : h >= 21 ? 3 : 1.2)), commissionPips: 0.7, slippagePips: 0.5 };

/** The request of a strategy in the costs benchmarks: SL 10 / TP1 10 / TP2 20 pips on EURUSD, with or without the costs. */
export function benchRequest(strategy: string, costs: boolean): BacktestRequest {
  return { strategy, symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20, ...(costs ? { costs: BENCH_COSTS } : {}) };
}
