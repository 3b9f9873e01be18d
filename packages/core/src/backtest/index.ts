export { runBacktest, backtestResultJson } from './run.js';
export { runEngine, runEngineTable, engineSetups, engineEntries, headCandles, type EngineRun, type EngineOutput, type EngineTableOutput } from './engine.js';
export { prepareRun, resolveStrategy, exitRules, periodWindow, lowerTimeframe, observedStep, type PreparedRun } from './prepare.js';
export { listZones, type ZoneRecord, type ListZonesOptions } from './zones.js';
export { ENGINE_VERSION } from './version.js';
export type { BacktestRequest, BacktestOptions, BacktestResult, RunMeta } from './types.js';
export { BACKTEST_WARNING_CODES, backtestWarningText, type BacktestWarning, type BacktestWarningCode } from './warnings.js';
