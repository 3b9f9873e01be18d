/** Timeframe keys of the product (docs/product.md §2.9). */
export type TimeframeKey = 'M1' | 'M5' | 'M15' | 'M30' | 'H1' | 'H4' | 'D1';

export type AssetClass = 'forex' | 'metal' | 'energy' | 'agriculture' | 'index' | 'crypto';

export interface SymbolDefinition {
  /** Canonical symbol, upper case, as used in file names: EURUSD, XAUUSD, BTC-USD... */
  readonly symbol: string;
  /** Display label (French where it is a word). */
  readonly label: string;
  readonly assetClass: AssetClass;
  /** Price distance of one pip. */
  readonly pipSize: number;
  /**
   * A typical spread in pips (a broker's published average, docs/catalogue.md "Typical spreads"
   * gives the source); null where bt knows no published figure. The backtest form pre-fills it.
   */
  readonly typicalSpreadPips: number | null;
}

/** The five pattern families behind the 24 official strategies (docs/product.md §2.3, docs/architecture.md §2). */
export type StrategyFamily =
  | 'ob_pullback_pure'
  | 'ob_pullback_gap'
  | 'fvg_pullback_multi'
  | 'fvg_impulsive'
  | 'englobante_entry';

/** Pullback families rest an order in a zone; signal families enter at the next open. */
export type EntryMode = 'pullback' | 'signal';

/** rsi: RSI threshold; ema_simple: close vs one EMA; tendance_ema: EMA fast vs EMA slow. */
export type FilterKind = 'rsi' | 'ema_simple' | 'tendance_ema';

export interface StrategyDefinition {
  readonly key: string;
  readonly family: StrategyFamily;
  readonly entryMode: EntryMode;
  /** Filters applied to every entry, in the order they are checked. */
  readonly filters: readonly FilterKind[];
  /** French texts shown to users. */
  readonly label: string;
  readonly short: string;
  readonly description: string;
  /** French lines for the documentation page's entry-conditions list. */
  readonly entryRules: readonly string[];
  /** Canonical names of the parameters this strategy reads (its signature). */
  readonly params: readonly string[];
}

export type ParamType = 'int' | 'float' | 'bool' | 'string';

export interface ParamDefinition {
  readonly name: string;
  readonly type: ParamType;
  /** undefined where the spec gives no default (the rule then says what "unset" means). */
  readonly default: number | boolean | string | undefined;
  readonly label: string;
  readonly description: string;
  /** 'basic' parameters show by default in the UI, 'advanced' behind a toggle. */
  readonly level: 'basic' | 'advanced';
  /** Inclusive bounds of a number parameter, checked by the parameter rules. */
  readonly min?: number;
  readonly max?: number;
  /** Accepted values of a string parameter (ob_side). */
  readonly choices?: readonly string[];
}

/** Canonical parameter values after aliasing, coercion and filtering. */
export type StrategyParams = Record<string, number | boolean | string | undefined>;
