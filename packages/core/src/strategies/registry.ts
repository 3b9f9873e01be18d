import type { Candles } from '../candles/types.js';
import type { EntryMode, FilterKind, StrategyDefinition, StrategyFamily, StrategyParams } from '../catalogue/types.js';
import { detectEngulfing } from '../patterns/engulfing.js';
import { detectFvg, detectImpulsiveFvg } from '../patterns/fvg.js';
import { detectOrderBlocks } from '../patterns/order-block.js';
import { applyConfirmCandle, keepSide } from '../patterns/refine.js';
import type { PatternKind, PriceSeries, Setups } from '../patterns/types.js';

/**
 * What the pipeline runs for one strategy: where its setups come from, how they are entered and
 * which filters gate the entries. Official strategies and signal functions both become a plan.
 */
export interface StrategyPlan {
  readonly key: string;
  readonly label: string;
  readonly entryMode: EntryMode;
  readonly filters: readonly FilterKind[];
  /** The official pattern; 'custom' for a signal function. */
  readonly pattern: PatternKind;
  /** Setups in ascending confirmation order, every parameter that shapes them applied. */
  detect(candles: Candles, params: StrategyParams, pipSize: number): Setups;
}

/** The pattern of each family, and the unit its `min_pips` is given in (docs/product.md §3.3). */
export const FAMILY_PATTERNS: Readonly<Record<StrategyFamily, { readonly pattern: PatternKind; readonly minPipsUnit: 'pips' | 'price' }>> = {
  ob_pullback_pure: { pattern: 'order_block', minPipsUnit: 'pips' },
  ob_pullback_gap: { pattern: 'order_block_gap', minPipsUnit: 'pips' },
  fvg_pullback_multi: { pattern: 'fvg', minPipsUnit: 'pips' },
  fvg_impulsive: { pattern: 'fvg_impulsive', minPipsUnit: 'price' },
  englobante_entry: { pattern: 'engulfing', minPipsUnit: 'price' },
};

/** Runs one official pattern detector; `minSize` in price units (ignored by the engulfing). */
export function detectPattern(pattern: PatternKind, series: PriceSeries, minSize = 0): Setups {
  switch (pattern) {
    case 'fvg':
      return detectFvg(series, { minSize });
    case 'fvg_impulsive':
      return detectImpulsiveFvg(series, { minSize });
    case 'order_block':
      return detectOrderBlocks(series, { minSize });
    case 'order_block_gap':
      return detectOrderBlocks(series, { gap: true, minSize });
    case 'engulfing':
      return detectEngulfing(series);
    default:
      throw new Error(`invalid pattern: ${String(pattern)} (expected fvg, fvg_impulsive, order_block, order_block_gap or engulfing)`);
  }
}

/** `ob_side`: both (default), bullish (buys only) or bearish (sells only). */
export function sideParam(value: unknown): -1 | 0 | 1 {
  if (value === undefined || value === null || value === '' || value === 'both') return 0;
  if (value === 'bullish') return 1;
  if (value === 'bearish') return -1;
  throw new Error(`invalid ob_side: ${JSON.stringify(value)} (expected both, bullish or bearish)`);
}

export function numberParam(params: StrategyParams, name: string, fallback: number): number {
  const v = params[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`invalid ${name}: ${JSON.stringify(v)}`);
  return v;
}

/**
 * Setups of a pattern with the parameters that shape them: `min_pips` (minimum zone height;
 * pips for pullback families, price units for the impulsive family), `ob_side`, then
 * `confirm_candle` (the setup moves to the confirming candle).
 */
export function shapedSetups(pattern: PatternKind, series: PriceSeries, params: StrategyParams, minSize: number): Setups {
  let setups = detectPattern(pattern, series, minSize);
  setups = keepSide(setups, sideParam(params.ob_side));
  if (params.confirm_candle === true) setups = applyConfirmCandle(setups, series);
  return setups;
}

/** The plan of an official strategy: its family's pattern, its entry mode, its filters. */
export function officialPlan(definition: StrategyDefinition): StrategyPlan {
  const family = FAMILY_PATTERNS[definition.family];
  if (!family) throw new Error(`invalid strategy family: ${String(definition.family)} (strategy ${definition.key})`);
  return {
    key: definition.key,
    label: definition.label,
    entryMode: definition.entryMode,
    filters: definition.filters,
    pattern: family.pattern,
    detect(candles, params, pipSize) {
      const minPips = numberParam(params, 'min_pips', 0);
      if (minPips < 0) throw new Error(`invalid min_pips: ${minPips}`);
      return shapedSetups(family.pattern, candles, params, family.minPipsUnit === 'pips' ? minPips * pipSize : minPips);
    },
  };
}
