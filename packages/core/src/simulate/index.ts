export type * from './types.js';
export { signalEntries, pullbackEntries, type Entries, type PullbackRules } from './entries.js';
export { placeLevels, roundPrice, validateExitRules, type ExitRules, type Levels } from './levels.js';
export { walk, newWalkState, type WalkState } from './walk.js';
export { resolveWithLowerTimeframe, lowerBound, type LowerTimeframe, type ResolvedResult } from './ambiguity.js';
export { simulateTrades, type Simulation, type SimulationOptions, type AmbiguitySummary } from './trades.js';

