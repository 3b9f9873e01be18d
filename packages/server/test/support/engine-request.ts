import type { Candles } from '@bt/core/candles';
import type { TimeframeKey } from '@bt/core/catalogue';
import type { EngineRequest } from '../../src/jobs/task.js';

/**
 * The engine threads' backtest request the lanes' test and bench queue: fvg_pullback_multi over
 * the whole of `candles`, SL 10 / TP1 10 / TP2 20 pips on EURUSD, run number `runSeq`.
 */
export function pullbackRequest(candles: Candles, timeframe: TimeframeKey, runSeq: number, runPrefix = 'run'): EngineRequest {
  return {
    strategy: 'fvg_pullback_multi',
    params: {},
    slMode: 'external',
    slPips: 10,
    tp1Pips: 10,
    tp2Pips: 20,
    symbol: 'EURUSD',
    timeframe,
    pipSize: 0.0001,
    from: candles.time[0],
    to: candles.time[candles.length - 1],
    run: { runId: `${runPrefix}-${runSeq}`, userId: 1, runSeq },
    createdAt: Date.UTC(2026, 11, 1),
  };
}
