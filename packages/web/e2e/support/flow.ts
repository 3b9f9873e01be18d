/** What the flows of one browser run share: the harness, and the account the sign-up flow made. */
import type { Account } from './api.js';
import type { Harness } from './harness.js';

export interface Flow {
  /** Set by the run's `before`; read inside tests only. */
  h: Harness;
  /** The verified account of the sign-up flow (the backtest flow makes its own without it). */
  trader: Account | null;
}
