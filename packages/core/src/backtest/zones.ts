import type { Candles } from '../candles/types.js';
import type { StrategyParams } from '../catalogue/types.js';
import { findStrategy } from '../catalogue/strategies.js';
import { pipSize as catalogPipSize } from '../catalogue/symbols.js';
import { withIndicators } from '../indicators/columns.js';
import { normalizeParams } from '../params/normalize.js';
import { mitigationIndices } from '../patterns/refine.js';
import type { PatternKind } from '../patterns/types.js';
import { pullbackEntries, signalEntries } from '../simulate/entries.js';
import { filterGate } from '../strategies/filters.js';
import { checkFilterColumns, columnList, filterColumnNames, filterColumns, pullbackRulesFromParams } from '../strategies/params.js';
import { FAMILY_PATTERNS, numberParam, officialPlan, shapedSetups, type StrategyPlan } from '../strategies/registry.js';

/** One zone (or signal) as the engine saw it; indices into the candles and their opening times (ms UTC). */
export interface ZoneRecord {
  readonly kind: PatternKind;
  readonly side: 'buy' | 'sell';
  readonly top: number;
  readonly bottom: number;
  readonly formed_index: number;
  readonly formed_at: number;
  readonly confirmed_index: number;
  readonly confirmed_at: number;
  /** First entry the rules allow (pullback: the resting order's first fill; signal: the next open); null: none. */
  readonly filled_index: number | null;
  readonly filled_at: number | null;
  /** First candle after confirmation that reaches the near edge (smart-money-concepts' MitigatedIndex); null: never. */
  readonly mitigated_index: number | null;
  readonly mitigated_at: number | null;
}

export interface ListZonesOptions {
  /** Pip size for `min_pips` in pips; default: the catalogue's for `symbol` or the candles' symbol. */
  readonly pipSize?: number;
  readonly symbol?: string;
}

const PATTERN_MODES: Readonly<Record<Exclude<PatternKind, 'custom'>, { entryMode: 'pullback' | 'signal'; minPipsUnit: 'pips' | 'price' }>> = {
  fvg: { entryMode: 'pullback', minPipsUnit: 'pips' },
  order_block: { entryMode: 'pullback', minPipsUnit: 'pips' },
  order_block_gap: { entryMode: 'pullback', minPipsUnit: 'pips' },
  fvg_impulsive: { entryMode: 'signal', minPipsUnit: 'price' },
  engulfing: { entryMode: 'signal', minPipsUnit: 'price' },
};

/**
 * Every zone a pattern (`fvg`, `order_block`, `order_block_gap`, `fvg_impulsive`, `engulfing`) or an
 * official strategy (its pattern, parameters and filters) detects on the candles, so users can see
 * what the engine saw. `params` are the strategy's parameters (min_pips, confirm_candle, ob_side,
 * and the entry rules that decide `filled_*`); a strategy key normalises them first.
 */
export function listZones(candles: Candles, pattern: PatternKind | string, params: Record<string, unknown> = {}, options: ListZonesOptions = {}): ZoneRecord[] {
  let plan: StrategyPlan;
  let canonical: StrategyParams;
  let minPipsUnit: 'pips' | 'price';
  const definition = findStrategy(pattern);
  if (definition) {
    plan = officialPlan(definition);
    canonical = normalizeParams(params, { strategy: definition.key }).params;
    minPipsUnit = FAMILY_PATTERNS[definition.family].minPipsUnit;
  } else {
    const mode = PATTERN_MODES[pattern as Exclude<PatternKind, 'custom'>];
    if (!mode) throw new Error(`invalid pattern: ${JSON.stringify(pattern)} (expected fvg, order_block, order_block_gap, fvg_impulsive, engulfing or an official strategy key)`);
    canonical = normalizeParams(params, { defaults: false }).params;
    minPipsUnit = mode.minPipsUnit;
    plan = {
      key: pattern,
      label: pattern,
      entryMode: mode.entryMode,
      filters: [],
      pattern: pattern as PatternKind,
      detect: (c, p, pip) => shapedSetups(pattern as PatternKind, c, p, minPipsUnit === 'pips' ? numberParam(p, 'min_pips', 0) * pip : numberParam(p, 'min_pips', 0)),
    };
  }
  const needsPip = minPipsUnit === 'pips' && numberParam(canonical, 'min_pips', 0) > 0;
  const symbol = options.symbol ?? candles.symbol;
  const pip = options.pipSize ?? (needsPip ? catalogPipSize(symbol ?? '') : 1);
  const columns = filterColumnNames(plan.filters, canonical);
  checkFilterColumns(candles, columns, canonical);
  const series = withIndicators(candles, columnList(columns));
  const setups = plan.detect(series, canonical, pip);
  const gate = filterGate(series, plan.filters, filterColumns(series, filterColumnNames(plan.filters, canonical), canonical, plan.filters));
  const entries =
    plan.entryMode === 'pullback' ? pullbackEntries(series, setups, gate, pullbackRulesFromParams(canonical)) : signalEntries(series, setups, gate);
  const filled = new Int32Array(setups.count).fill(-1);
  for (let k = 0; k < entries.count; k++) if (filled[entries.setup[k]] < 0) filled[entries.setup[k]] = entries.index[k];
  const mitigated = mitigationIndices(setups, series);
  const time = series.time;
  const at = (i: number) => (i >= 0 ? time[i] : null);
  const out: ZoneRecord[] = [];
  for (let z = 0; z < setups.count; z++) {
    out.push({
      kind: setups.kind,
      side: setups.side[z] > 0 ? 'buy' : 'sell',
      top: setups.top[z],
      bottom: setups.bottom[z],
      formed_index: setups.formedAt[z],
      formed_at: time[setups.formedAt[z]],
      confirmed_index: setups.confirmedAt[z],
      confirmed_at: time[setups.confirmedAt[z]],
      filled_index: filled[z] >= 0 ? filled[z] : null,
      filled_at: at(filled[z]),
      mitigated_index: mitigated[z] >= 0 ? mitigated[z] : null,
      mitigated_at: at(mitigated[z]),
    });
  }
  return out;
}
