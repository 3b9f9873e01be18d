/** How each simulated sequence is drawn from the observed R sequence (docs/engine.md §15). */
export type MonteCarloMethod = 'bootstrap' | 'shuffle';

export interface MonteCarloOptions {
  /** bootstrap (default): trades drawn with replacement; shuffle: the same trades in a random order. */
  readonly method?: MonteCarloMethod;
  /** Simulated sequences; default 10,000, at most 1,000,000. */
  readonly runs?: number;
  /** Seed of core's seededRandom (an unsigned 32-bit integer); default 1. The same seed gives the same result. */
  readonly seed?: number;
  /** Trades per bootstrap sequence; default: as many as observed (a shuffle always uses them all). */
  readonly trades?: number;
  /** Fraction of the current equity risked per trade for the risk of ruin; default 0.01 (1 %). */
  readonly riskPerTrade?: number;
  /** Ruin: the equity falls to (1 - ruinLevel) of the start or below; default 0.5 (half the account lost). */
  readonly ruinLevel?: number;
  /** Percentiles reported, each in (0, 100], at most 1,000 of them; default 5, 50, 95. */
  readonly percentiles?: readonly number[];
  /** Histogram bins of the continuous distributions; default 30. */
  readonly bins?: number;
}

export interface Histogram {
  /** Bin edges (bins + 1 values); bin i is [edges[i], edges[i + 1]), the last one closed. */
  readonly edges: readonly number[];
  readonly counts: readonly number[];
}

export interface Distribution {
  /** Nearest rank: the smallest value with at least p % of the runs at or below it. */
  readonly percentiles: readonly { readonly p: number; readonly value: number }[];
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  /** The observed sequence's own value, for comparison. */
  readonly observed: number;
  readonly histogram: Histogram;
}

export interface MonteCarloResult {
  readonly method: MonteCarloMethod;
  readonly runs: number;
  readonly seed: number;
  /** Trades in the observed sequence, and per simulated sequence. */
  readonly observedTrades: number;
  readonly tradesPerRun: number;
  /** Largest fall of cumulative R from a previous peak (the start counts as a peak), in R. */
  readonly maxDrawdownR: Distribution;
  /** Sum of R. */
  readonly finalR: Distribution;
  /** Most consecutive trades with R < 0. */
  readonly longestLosingStreak: Distribution;
  /**
   * Risking `riskPerTrade` of the current equity on each trade (equity × (1 + risk × R)), the
   * share of runs whose equity ever falls to (1 - ruinLevel) of the start or below.
   */
  readonly riskOfRuin: { readonly riskPerTrade: number; readonly ruinLevel: number; readonly probability: number; readonly ruinedRuns: number };
}

export const MONTE_CARLO_DEFAULTS = { runs: 10_000, seed: 1, riskPerTrade: 0.01, ruinLevel: 0.5, percentiles: [5, 50, 95], bins: 30 } as const;
export const MONTE_CARLO_LIMITS = { runs: 1_000_000, trades: 1_000_000, steps: 2_000_000_000, bins: 200, percentiles: 1000 } as const;
