export { monteCarlo, rSequence, sequenceFigures, nearestRank } from './simulate.js';
export { MONTE_CARLO_DEFAULTS, MONTE_CARLO_LIMITS, type MonteCarloMethod, type MonteCarloOptions, type MonteCarloResult, type Distribution, type Histogram } from './types.js';
