import { randomUUID } from 'node:crypto';
import type { RunStart } from '../../src/backtests/charge.js';
import type { EngineResult } from '../../src/jobs/task.js';
import type { TestApp } from './app.js';

/** A run's start as the backtest route records it (an official FVG run on EURUSD M15), for the tests of its writes. */
export const runStart = (t: TestApp, userId: number, base: string, overrides: Partial<RunStart> = {}): RunStart => ({
  runId: randomUUID(),
  userId,
  base,
  source: 'official',
  official: true,
  strategy: 'fvg_pullback_multi',
  strategyLabel: 'FVG',
  userStrategyId: null,
  symbol: 'EURUSD',
  timeframe: 'M15',
  startDate: '2023-01-01',
  endDate: '2023-01-31',
  slMode: 'external',
  slPips: 10,
  tp1Pips: 10,
  tp2Pips: null,
  params: '{}',
  createdAt: t.clock.now(),
  ...overrides,
});

/** The figures finishRun reads of a result (a real run's are checked by test/backtests.test.ts). */
export const FINISHED_RESULT = {
  strategyLabel: 'FVG',
  from: 0,
  warnings: [],
  statistics: { global: { trades: 3, resolved: 2, tp1: { winrate: 0.5 }, tp2: { winrate: null }, slRate: 0.5 }, sessions: [], byHour: [], byWeekday: [] },
} as unknown as EngineResult;
