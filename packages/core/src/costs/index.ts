export { COST_LIMITS, CostError, FOREX_LOT_UNITS, NO_COSTS, type CostSettings, type TradingCostsInput } from './types.js';
export { normalizeCosts, hasCosts, costField } from './settings.js';
export { runCosts, noRunCosts, inferPointSize, defaultPointSize, spreadColumnName, type RunCosts } from './quotes.js';
