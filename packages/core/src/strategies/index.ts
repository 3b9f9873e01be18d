export { filterMasks, filterGate, type FilterColumns, type FilterMasks, type FilterGate } from './filters.js';
export { FAMILY_PATTERNS, detectPattern, shapedSetups, officialPlan, sideParam, numberParam, type StrategyPlan } from './registry.js';
export { signalPlan, signalsToSetups, isSignalStrategy, type SignalStrategy, type StrategySignal } from './custom.js';
export { pullbackRulesFromParams, filterColumnNames, filterColumns, columnName, columnList, type FilterColumnNames } from './params.js';
