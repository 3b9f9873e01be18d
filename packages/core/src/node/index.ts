// @bt/core/node: the Node-only helpers (files). Everything else in core runs in the browser too.
export { readCandlesFile, writeCandlesFile, candleFileKind, type CandleFileKind, type WriteCandlesFileOptions } from './candle-files.js';
export {
  readGoldenPlan, parseGoldenPlan, goldenFilePath, computeGolden, formatGolden, updateGoldenFile, compareGolden, TRADE_COLUMNS,
  type GoldenPlan, type GoldenScenario, type GoldenFile, type GoldenStrategy, type GoldenRow, type GoldenDrift, type ComputeGoldenOptions,
} from './golden.js';
