export type * from './types.js';
export { signalEntries, pullbackEntries, type Entries, type PullbackRules } from './entries.js';
export { stableOrder } from './entry-order.js';
export { placeLevels, priceRounding, roundPrice, validateExitRules, type ExitRules, type Levels } from './levels.js';
export { walk, newWalkState, type WalkState } from './walk.js';
export { priceBlocks, fastWalk, walkIn, walkOutCandles, walkOutPrices, type PriceBlocks } from './fast-walk.js';
export { resolveWithLowerTimeframe, lowerBound, type LowerTimeframe, type ResolvedResult } from './ambiguity.js';
export {
  simulateTable, simulateTrades, tradesFromTable, targetR, NONE,
  type TradeTable, type TradeCosts, type TableSimulation, type Simulation, type SimulationOptions, type AmbiguitySummary,
} from './trades.js';
