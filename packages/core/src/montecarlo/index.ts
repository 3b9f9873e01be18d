export { monteCarlo, rSequence } from './simulate.js';
export { sequenceFigures, nearestRank } from './summary.js';
export { monteCarloRuns, mergeMonteCarlo, monteCarloSize, runsBuffers, splitRuns, type MonteCarloRuns, type RunRange } from './ranges.js';
export { MONTE_CARLO_DEFAULTS, MONTE_CARLO_LIMITS, type MonteCarloMethod, type MonteCarloOptions, type MonteCarloResult, type Distribution, type Histogram } from './types.js';
