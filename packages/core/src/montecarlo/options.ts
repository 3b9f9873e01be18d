// The Monte Carlo's options, checked once and filled with the defaults (docs/engine.md §15).
// Browser-safe: no Node API.
import { MONTE_CARLO_DEFAULTS, MONTE_CARLO_LIMITS, type MonteCarloOptions } from './types.js';

export type CheckedOptions = ReturnType<typeof checkOptions>;

export function checkOptions(options: MonteCarloOptions, observed: number) {
  const method = options.method ?? 'bootstrap';
  if (method !== 'bootstrap' && method !== 'shuffle') throw new Error(`invalid method: ${JSON.stringify(method)} (expected bootstrap or shuffle)`);
  const int = (name: string, v: number | undefined, fallback: number, min: number, max: number) => {
    if (v === undefined) return fallback;
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`invalid ${name}: ${String(v)} (expected a whole number from ${min} to ${max.toLocaleString('en-US')})`);
    return v;
  };
  const runs = int('runs', options.runs, MONTE_CARLO_DEFAULTS.runs, 1, MONTE_CARLO_LIMITS.runs);
  const seed = int('seed', options.seed, MONTE_CARLO_DEFAULTS.seed, 0, 0xffffffff);
  if (method === 'shuffle' && options.trades !== undefined && options.trades !== observed) throw new Error(`invalid trades: ${options.trades} (a shuffle reorders the ${observed} observed trades; only a bootstrap draws another count)`);
  const trades = int('trades', options.trades, observed, 1, MONTE_CARLO_LIMITS.trades);
  if (runs * trades > MONTE_CARLO_LIMITS.steps) throw new Error(`invalid runs: ${runs} runs of ${trades} trades are more than ${MONTE_CARLO_LIMITS.steps.toLocaleString('en-US')} draws`);
  const risk = options.riskPerTrade ?? MONTE_CARLO_DEFAULTS.riskPerTrade;
  if (typeof risk !== 'number' || !(risk > 0 && risk < 1)) throw new Error(`invalid riskPerTrade: ${String(risk)} (expected a fraction of the equity, > 0 and < 1, e.g. 0.01 for 1 %)`);
  const ruin = options.ruinLevel ?? MONTE_CARLO_DEFAULTS.ruinLevel;
  if (typeof ruin !== 'number' || !(ruin > 0 && ruin <= 1)) throw new Error(`invalid ruinLevel: ${String(ruin)} (expected a fraction of the starting equity, > 0 and at most 1, e.g. 0.5)`);
  const percentiles = options.percentiles ?? MONTE_CARLO_DEFAULTS.percentiles;
  // Each is reported for three distributions; a million of them made a result of millions of
  // objects and an error message holding them all.
  if (Array.isArray(percentiles) && percentiles.length > MONTE_CARLO_LIMITS.percentiles) {
    throw new Error(`invalid percentiles: ${percentiles.length.toLocaleString('en-US')} values (at most ${MONTE_CARLO_LIMITS.percentiles.toLocaleString('en-US')})`);
  }
  if (!Array.isArray(percentiles) || percentiles.length === 0 || percentiles.some((p) => typeof p !== 'number' || !(p > 0 && p <= 100))) {
    const shown = JSON.stringify(percentiles) ?? String(percentiles);
    throw new Error(`invalid percentiles: ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} (expected numbers in (0, 100], e.g. [5, 50, 95])`);
  }
  const bins = int('bins', options.bins, MONTE_CARLO_DEFAULTS.bins, 1, MONTE_CARLO_LIMITS.bins);
  return { method, runs, seed, trades, risk, ruin, percentiles, bins };
}
