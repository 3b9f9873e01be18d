/**
 * A pair sheet of the reference page (docs/web.md "Reference page"): the texts written for one
 * catalogue symbol. The catalogue gives the label, the asset class and the pip size; the data
 * available in bt comes from the server; everything else is here.
 */
export interface PairSheet {
  /** Two or three sentences: what the instrument is and what moves it. */
  readonly summary: string;
  /** The asset-class line beyond the class itself ('paire majeure', 'future COMEX de 100 onces'). */
  readonly kind: string;
  /** What one pip is worth, or how to compute it where it depends on the contract. */
  readonly pipValue: string;
  /** When it trades and when it is most active, in UTC (bt's session columns). */
  readonly sessions: string;
  /** Volatility in words (no figure), and what causes its spikes. */
  readonly volatility: string;
  readonly notes: readonly string[];
  readonly advice: readonly string[];
}
